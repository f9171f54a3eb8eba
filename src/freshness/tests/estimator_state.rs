//! The serialised estimator state (`estimator/state.rs`): exact round
//! trips, the documented layout and size bound, and refusal of every
//! malformed input.

use crate::error::Error;
use crate::freshness::estimator::*;
use proptest::prelude::*;

fn f(x: f64) -> [u8; 8] {
    x.to_le_bytes()
}

/// Unsigned LEB128, written out independently of the library's encoder.
fn leb(mut v: u64) -> Vec<u8> {
    let mut out = vec![];
    loop {
        let low = (v % 128) as u8;
        v /= 128;
        if v == 0 {
            out.push(low);
            return out;
        }
        out.push(low + 128);
    }
}

/// Visits with intervals from `intervals` (recycled) and change flags from
/// the bits of `pattern`.
fn observed(
    prior: Option<(f64, f64)>,
    intervals: &[f64],
    pattern: u64,
    n: usize,
) -> ChangeRateEstimator {
    let mut e = match prior {
        Some((r, w)) => ChangeRateEstimator::with_prior(r, w).unwrap(),
        None => ChangeRateEstimator::new(),
    };
    for k in 0..n {
        let t = intervals[k % intervals.len()];
        e.observe(t, pattern >> (k % 64) & 1 == 1).unwrap();
    }
    e
}

/// Same estimate bit for bit (or both none).
fn same_estimate(a: &ChangeRateEstimator, b: &ChangeRateEstimator) -> bool {
    a.estimate().map(f64::to_bits) == b.estimate().map(f64::to_bits)
}

fn invalid(bytes: &[u8]) -> String {
    match ChangeRateEstimator::from_bytes(bytes) {
        Err(Error::InvalidArgument(m)) => m,
        other => panic!("{bytes:02x?} gave {other:?}"),
    }
}

#[test]
fn layout_of_a_small_state_is_as_documented() {
    let mut e = ChangeRateEstimator::new();
    e.observe(1.0, true).unwrap();
    e.observe(2.0, false).unwrap();
    let mut want = vec![0xC5, 1, 0, 1, 2];
    want.extend(f(2.0)); // unchanged time
    want.extend(f(3.0)); // total time
    want.extend(f(1.0)); // bucket 0: interval 1, count 1
    want.push(1);
    assert_eq!(e.to_bytes(), want);
    // With a prior α = 0.5·4, β = 4 the flag is set and α, β follow the
    // times.
    let p = ChangeRateEstimator::with_prior(0.5, 4.0).unwrap();
    let mut want = vec![0xC5, 1, 1, 0, 0];
    want.extend(f(0.0));
    want.extend(f(0.0));
    want.extend(f(2.0));
    want.extend(f(4.0));
    assert_eq!(p.to_bytes(), want);
    // Python's base64.urlsafe_b64encode of these bytes, '=' stripped.
    assert_eq!(
        p.to_text(),
        "xQEBAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAEAAAAAAAAAQQA"
    );
}

#[test]
fn round_trip_is_exact_and_continues_identically() {
    let irregular: Vec<f64> = (1..=200).map(|k| 0.1 * k as f64 + 1.0 / k as f64).collect();
    let cases = [
        observed(None, &[1.0], 0, 0),
        observed(None, &[1.0], 0, 5),
        observed(None, &[1.0], u64::MAX, 5),
        observed(None, &[0.5, 2.0, 3.25], 0x5a5a_1234_dead_beef, 500),
        observed(Some((0.3, 10.0)), &irregular, 0x0f0f_3333_5555_9999, 1000),
        observed(Some((1e-300, 1e300)), &[f64::MIN_POSITIVE, 1e-300], 0b10, 7),
    ];
    for e in cases {
        let bytes = e.to_bytes();
        assert!(bytes.len() <= MAX_STATE_BYTES);
        let mut back = ChangeRateEstimator::from_bytes(&bytes).unwrap();
        assert_eq!(back, e);
        assert!(same_estimate(&back, &e));
        assert_eq!(ChangeRateEstimator::from_text(&e.to_text()).unwrap(), e);
        // Continuing after the import gives exactly what the original gives.
        let mut orig = e.clone();
        for k in 0..300 {
            let t = 0.37 * (k % 17) as f64 + 0.01;
            orig.observe(t, k % 3 == 0).unwrap();
            back.observe(t, k % 3 == 0).unwrap();
            assert!(same_estimate(&back, &orig));
        }
        assert_eq!(back.to_bytes(), orig.to_bytes());
    }
}

#[test]
fn maximum_size_is_reached_and_never_exceeded() {
    assert_eq!(MAX_STATE_BYTES, 1135);
    assert_eq!(MAX_STATE_TEXT_CHARS, 1514);
    // The longest state: a prior, n ≥ 2^63, 64 buckets, one count 2^63 and
    // 63 counts 2^56 (sum 191·2^56 < 2^64).
    let mut b = vec![0xC5, 1, 1, 64];
    b.extend(leb(u64::MAX));
    b.extend(f(1.0));
    b.extend(f(1e9));
    b.extend(f(1.0));
    b.extend(f(1.0));
    for j in 0..64 {
        b.extend(f(1.0 + j as f64));
        b.extend(leb(if j == 0 { 1 << 63 } else { 1 << 56 }));
    }
    assert_eq!(b.len(), MAX_STATE_BYTES);
    let e = ChangeRateEstimator::from_bytes(&b).unwrap();
    assert_eq!(e.to_bytes(), b);
    assert_eq!(e.to_text().len(), MAX_STATE_TEXT_CHARS);
    // A page with fewer than 2^35 visits stays within 878 bytes: 64
    // buckets observed many times each.
    let mut e = ChangeRateEstimator::with_prior(1.0, 1.0).unwrap();
    for k in 0..20_000 {
        e.observe(1.0 + (k % 97) as f64 * 0.013, k % 5 != 0)
            .unwrap();
    }
    let len = e.to_bytes().len();
    assert!((46 + 64 * 9..=878).contains(&len), "{len}");
}

#[test]
fn every_truncation_and_extension_is_refused() {
    let e = observed(Some((2.0, 0.5)), &[0.3, 0.9, 1.7], 0x1234_5678, 40);
    let b = e.to_bytes();
    for len in 0..b.len() {
        let m = invalid(&b[..len]);
        assert!(m.starts_with("bytes: truncated"), "{m}");
    }
    let mut longer = b.clone();
    longer.push(0);
    assert!(invalid(&longer).contains("1 bytes follow the last bucket"));
}

/// A valid state without prior (n = 3: two changed at 1 and 2, one
/// unchanged of 4) with one field replaced.
fn edited(edit: impl Fn(&mut Vec<u8>)) -> Vec<u8> {
    let mut b = vec![0xC5, 1, 0, 2, 3];
    b.extend(f(4.0));
    b.extend(f(7.0));
    b.extend(f(1.0));
    b.push(1);
    b.extend(f(2.0));
    b.push(1);
    assert!(ChangeRateEstimator::from_bytes(&b).is_ok());
    edit(&mut b);
    b
}

#[test]
fn malformed_fields_are_refused_with_their_name() {
    let put = |at: usize, x: f64| move |b: &mut Vec<u8>| b[at..at + 8].copy_from_slice(&f(x));
    let cases: Vec<(Vec<u8>, &str)> = vec![
        (
            edited(|b| b[0] = 0xC4),
            "not an estimator state (magic byte 0xc4",
        ),
        (
            edited(|b| b[1] = 2),
            "unsupported estimator state version 2",
        ),
        (edited(|b| b[2] = 2), "unknown flags 0x02"),
        (edited(|b| b[3] = 65), "65 buckets, at most 64"),
        (
            edited(put(5, f64::NAN)),
            "unchanged time at offset 5 must be finite and >= 0, got NaN",
        ),
        (
            edited(put(5, -0.0)),
            "unchanged time at offset 5 must be finite and >= 0, got -0",
        ),
        (
            edited(put(13, f64::INFINITY)),
            "total time at offset 13 must be finite",
        ),
        (edited(put(21, f64::NAN)), "bucket interval at offset 21"),
        (
            edited(put(21, 0.0)),
            "bucket interval at offset 21 must be > 0",
        ),
        (
            edited(put(30, 1.0)),
            "bucket 1's interval 1 does not exceed bucket 0's 1",
        ),
        (
            edited(put(30, 0.5)),
            "bucket 1's interval 0.5 does not exceed",
        ),
        (edited(|b| b[29] = 0), "bucket 0 has count 0"),
        (
            edited(|b| b[4] = 1),
            "sum to 2 changed visits, more than n = 1",
        ),
        (
            edited(put(5, 0.0)),
            "unchanged time 0 is inconsistent with 1 unchanged visits",
        ),
        (edited(put(13, 3.0)), "total time 3 is less than"),
        // Overlong and overflowing varints.
        (
            edited(|b| b.splice(4..5, [0x83, 0x00]).for_each(drop)),
            "n at offset 4 is not minimally encoded",
        ),
        (
            edited(|b| b.splice(4..5, [0xff; 10]).for_each(drop)),
            "n at offset 4 overflows 64 bits",
        ),
        (
            edited(|b| b.splice(4..5, [0x80; 11]).for_each(drop)),
            "n at offset 4 overflows 64 bits",
        ),
    ];
    for (bytes, want) in cases {
        let m = invalid(&bytes);
        assert!(
            m.starts_with("bytes: ") && m.contains(want),
            "{m:?} lacks {want:?}"
        );
    }
}

#[test]
fn overflowing_counts_and_bad_priors_are_refused() {
    // Counts that overflow u64 together.
    let mut b = vec![0xC5, 1, 0, 2];
    b.extend(leb(u64::MAX));
    b.extend(f(0.0));
    b.extend(f(9.0));
    b.extend(f(1.0));
    b.extend(leb(u64::MAX));
    b.extend(f(2.0));
    b.extend(leb(1));
    assert!(invalid(&b).contains("the bucket counts overflow 64 bits"));
    // No visit but some time; a prior of 0 or NaN.
    let mut b = vec![0xC5, 1, 0, 0, 0];
    b.extend(f(0.0));
    b.extend(f(1.0));
    assert!(invalid(&b).contains("total time 1 is inconsistent with n = 0 visits"));
    for bad in [0.0, f64::NAN, -1.0] {
        let mut b = vec![0xC5, 1, 1, 0, 0];
        b.extend(f(0.0));
        b.extend(f(0.0));
        b.extend(f(bad));
        b.extend(f(1.0));
        assert!(invalid(&b).contains("prior alpha at offset 21"));
    }
    // A prior whose mode α/β overflows.
    let mut b = vec![0xC5, 1, 1, 0, 0];
    b.extend(f(0.0));
    b.extend(f(0.0));
    b.extend(f(1e300));
    b.extend(f(1e-300));
    assert!(invalid(&b).contains("prior alpha / beta = inf must be finite and > 0"));
}

#[test]
fn text_form_is_unpadded_base64url() {
    let e = observed(None, &[0.25, 4.0], 0b0110, 9);
    let b = e.to_bytes();
    let t = e.to_text();
    assert_eq!(t.len(), (4 * b.len()).div_ceil(3));
    assert!(
        t.bytes()
            .all(|c| c.is_ascii_alphanumeric() || c == b'-' || c == b'_')
    );
    // 0xC5 0x01 starts every state: 110001 011100 0000.. = "xQ".
    assert_eq!(&t[..2], "xQ");
    for (text, want) in [
        ("x", "length 1 is not a base64url length"),
        ("xQ=", "byte 0x3d at offset 2 is not a base64url character"),
        ("xR", "nonzero bits after the last byte"),
        ("xQ+B", "byte 0x2b at offset 2"),
    ] {
        match ChangeRateEstimator::from_text(text) {
            Err(Error::InvalidArgument(m)) => assert!(m.contains(want), "{m}"),
            other => panic!("{text}: {other:?}"),
        }
    }
    let long = "A".repeat(MAX_STATE_TEXT_CHARS + 1);
    assert!(ChangeRateEstimator::from_text(&long).is_err());
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 300, failure_persistence: None, ..ProptestConfig::default() })]
    /// Any observation sequence (with more distinct intervals than buckets)
    /// survives export and import exactly, within the size bound.
    #[test]
    fn any_history_round_trips(
        prior in proptest::option::of((1e-3f64..1e3, 1e-3f64..1e3)),
        visits in prop::collection::vec((1e-4f64..1e4, any::<bool>()), 0..300),
    ) {
        let mut e = match prior {
            Some((r, w)) => ChangeRateEstimator::with_prior(r, w).unwrap(),
            None => ChangeRateEstimator::new(),
        };
        for &(t, c) in &visits {
            e.observe(t, c).unwrap();
        }
        let b = e.to_bytes();
        prop_assert!(b.len() <= MAX_STATE_BYTES);
        let back = ChangeRateEstimator::from_bytes(&b).unwrap();
        prop_assert_eq!(&back, &e);
        prop_assert!(same_estimate(&back, &e));
        prop_assert_eq!(back.std_error().map(f64::to_bits), e.std_error().map(f64::to_bits));
    }

    /// Hostile bytes never panic, and what is accepted is canonical: it
    /// exports back to the same bytes.
    #[test]
    fn hostile_bytes_are_refused_or_canonical(
        head in prop::collection::vec(any::<u8>(), 0..64),
        flip in any::<u16>(),
        keep in any::<bool>(),
    ) {
        let mut b = if keep {
            observed(Some((0.7, 3.0)), &[0.2, 1.1, 5.0], 0xabcd, 30).to_bytes()
        } else {
            vec![0xC5, 1]
        };
        b.extend(&head);
        let at = flip as usize % b.len();
        b[at] ^= (flip >> 8) as u8;
        if let Ok(e) = ChangeRateEstimator::from_bytes(&b) {
            prop_assert_eq!(e.to_bytes(), b);
            let _ = e.estimate();
        }
    }
}
