//! The bounded, serialisable state of a [`ChangeRateEstimator`]: what a
//! crawler stores in a page's own metadata (a Nutch CrawlDatum, a
//! StormCrawler metadata string, a Scrapy job directory) instead of the
//! page's visit history, to reload later and keep observing.
//!
//! # Format, version 1
//!
//! Little-endian; `f64` is the IEEE 754 binary64 bit pattern (8 bytes);
//! `varint` is unsigned LEB128 (7 bits per byte, low group first, high bit
//! set on every byte but the last), at most 10 bytes, minimal (no
//! redundant trailing 0x80/0x00 groups).
//!
//! ```text
//! byte 0      magic 0xC5
//! byte 1      version 1
//! byte 2      flags: bit 0 = a prior follows; bits 1-7 are 0
//! byte 3      k, the number of buckets, 0 ≤ k ≤ MAX_BUCKETS (64)
//! varint      n, visits recorded
//! f64         total time unchanged visits covered (finite, ≥ +0)
//! f64         total time all visits covered (finite, ≥ the previous)
//! [f64, f64]  prior α and β (finite, > 0, α/β finite and > 0), when
//!             flag bit 0 is set
//! k times:    f64 interval (finite, > 0, strictly increasing),
//!             varint count of changed visits with it (≥ 1)
//! ```
//!
//! The changed visits are Σ counts ≤ n; total time is > 0 exactly when
//! n > 0, unchanged time exactly when some visit saw no change, and it is
//! at least the largest interval. Every state an estimator reaches
//! satisfies these rules, and [`ChangeRateEstimator::from_bytes`] accepts
//! nothing else, so the encoding is canonical: bytes that import export
//! back unchanged. At most [`MAX_STATE_BYTES`] bytes; a page with fewer
//! than 2^35 visits takes at most 46 + 13 × 64 = 878.
//!
//! The text form ([`ChangeRateEstimator::to_text`]) is these bytes in
//! unpadded base64url (RFC 4648 §5: `A–Z a–z 0–9 - _`), for string-only
//! metadata.

use super::{ChangeRateEstimator, MAX_BUCKETS, Prior};
use crate::error::{Error, Num, Result};

/// First byte of every serialised estimator state.
pub const STATE_MAGIC: u8 = 0xC5;

/// Version of the format written by [`ChangeRateEstimator::to_bytes`], the
/// only one [`ChangeRateEstimator::from_bytes`] reads.
pub const STATE_VERSION: u8 = 1;

/// Most bytes a serialised estimator state takes: the 4-byte header, a
/// 10-byte n, two times, a prior (16) and 64 intervals (512) with counts
/// whose varints are longest when one count is ≥ 2^63 (10 bytes) and 63
/// are ≥ 2^56 (9 bytes each), all that a u64 sum allows.
pub const MAX_STATE_BYTES: usize = 4 + 10 + 16 + 16 + 8 * MAX_BUCKETS + 10 + 9 * (MAX_BUCKETS - 1);

/// Most characters of a state's text form
/// ([`ChangeRateEstimator::to_text`]): ⌈4 · [`MAX_STATE_BYTES`] / 3⌉.
pub const MAX_STATE_TEXT_CHARS: usize = (4 * MAX_STATE_BYTES).div_ceil(3);

/// Flag bit: a prior follows the times.
const HAS_PRIOR: u8 = 1;

impl ChangeRateEstimator {
    /// This estimator's state in the versioned format of this module's
    /// documentation, at most [`MAX_STATE_BYTES`] bytes.
    /// [`from_bytes`](Self::from_bytes) restores it exactly: the same
    /// estimate, bit for bit, and the same results for every later visit.
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut out = Vec::with_capacity(MAX_STATE_BYTES);
        let flags = if self.prior.is_some() { HAS_PRIOR } else { 0 };
        // Buckets never exceed MAX_BUCKETS (64), so k fits a byte.
        out.extend([STATE_MAGIC, STATE_VERSION, flags, self.changed.len() as u8]);
        put_varint(&mut out, self.n);
        out.extend(self.unchanged_time.to_le_bytes());
        out.extend(self.total_time.to_le_bytes());
        if let Some(p) = self.prior {
            out.extend(p.alpha.to_le_bytes());
            out.extend(p.beta.to_le_bytes());
        }
        for &(t, c) in &self.changed {
            out.extend(t.to_le_bytes());
            put_varint(&mut out, c);
        }
        out
    }

    /// The estimator whose [`to_bytes`](Self::to_bytes) gave `bytes`.
    ///
    /// Errors (`InvalidArgument`, naming `bytes` and the offending field):
    /// another magic byte or version, unknown flags, too many buckets,
    /// bytes missing or left over, an overlong or overflowing varint, a
    /// time or prior value that is NaN, infinite, negative or -0, buckets
    /// not strictly increasing or with count 0, counts summing past n, or
    /// times inconsistent with the counts (see the module documentation).
    pub fn from_bytes(bytes: &[u8]) -> Result<Self> {
        let mut r = Reader { bytes, pos: 0 };
        let (flags, k) = header(&mut r)?;
        let n = r.varint("n")?;
        let unchanged_time = r.f64("unchanged time")?;
        let total_time = r.f64("total time")?;
        let prior = if flags & HAS_PRIOR != 0 {
            Some(prior(&mut r)?)
        } else {
            None
        };
        let changed = buckets(&mut r, k)?;
        if r.pos != bytes.len() {
            return Err(bad(format!(
                "{} bytes follow the last bucket (offset {})",
                bytes.len() - r.pos,
                r.pos
            )));
        }
        let est = ChangeRateEstimator {
            n_changed: changed_visits(&changed)?,
            changed,
            n,
            unchanged_time,
            total_time,
            prior,
        };
        est.check_consistent()?;
        Ok(est)
    }

    /// [`to_bytes`](Self::to_bytes) as unpadded base64url text, at most
    /// [`MAX_STATE_TEXT_CHARS`] characters.
    pub fn to_text(&self) -> String {
        base64url(&self.to_bytes())
    }

    /// The estimator whose [`to_text`](Self::to_text) gave `text`: as
    /// [`from_bytes`](Self::from_bytes), after `text` is checked to be
    /// unpadded base64url of at most [`MAX_STATE_TEXT_CHARS`] characters
    /// (`InvalidArgument` naming the first bad character otherwise).
    pub fn from_text(text: &str) -> Result<Self> {
        Self::from_bytes(&from_base64url(text)?)
    }

    /// The rules of the module documentation that tie the counters
    /// together.
    fn check_consistent(&self) -> Result<()> {
        if self.n_changed > self.n {
            return Err(bad(format!(
                "the bucket counts sum to {} changed visits, more than n = {}",
                self.n_changed, self.n
            )));
        }
        if (self.total_time > 0.0) != (self.n > 0) {
            return Err(bad(format!(
                "total time {} is inconsistent with n = {} visits",
                Num(self.total_time),
                self.n
            )));
        }
        let unchanged = self.n - self.n_changed;
        if (self.unchanged_time > 0.0) != (unchanged > 0) {
            return Err(bad(format!(
                "unchanged time {} is inconsistent with {unchanged} unchanged visits",
                Num(self.unchanged_time)
            )));
        }
        let longest = self.changed.last().map_or(0.0, |b| b.0);
        if self.total_time < self.unchanged_time.max(longest) {
            return Err(bad(format!(
                "total time {} is less than the unchanged time or an interval",
                Num(self.total_time)
            )));
        }
        Ok(())
    }
}

/// The message of every malformed state.
fn bad(reason: String) -> Error {
    Error::invalid(format!("bytes: {reason}"))
}

/// Magic, version, flags and bucket count.
fn header(r: &mut Reader) -> Result<(u8, usize)> {
    let magic = r.byte("magic byte")?;
    if magic != STATE_MAGIC {
        return Err(bad(format!(
            "not an estimator state (magic byte {magic:#04x}, expected {STATE_MAGIC:#04x})"
        )));
    }
    let version = r.byte("version")?;
    if version != STATE_VERSION {
        return Err(bad(format!(
            "unsupported estimator state version {version} (this library reads {STATE_VERSION})"
        )));
    }
    let flags = r.byte("flags")?;
    if flags & !HAS_PRIOR != 0 {
        return Err(bad(format!("unknown flags {flags:#04x}")));
    }
    let k = r.byte("bucket count")? as usize;
    if k > MAX_BUCKETS {
        return Err(bad(format!("{k} buckets, at most {MAX_BUCKETS} allowed")));
    }
    Ok((flags, k))
}

/// α and β finite and > 0, with a finite, positive mode α/β (the rate
/// guess of [`ChangeRateEstimator::with_prior`]).
fn prior(r: &mut Reader) -> Result<Prior> {
    let alpha = r.positive("prior alpha")?;
    let beta = r.positive("prior beta")?;
    let guess = alpha / beta;
    if !(guess.is_finite() && guess > 0.0) {
        return Err(bad(format!(
            "prior alpha / beta = {} must be finite and > 0",
            Num(guess)
        )));
    }
    Ok(Prior { alpha, beta })
}

/// `k` buckets: intervals finite, > 0 and strictly increasing, counts ≥ 1.
fn buckets(r: &mut Reader, k: usize) -> Result<Vec<(f64, u64)>> {
    let mut changed: Vec<(f64, u64)> = Vec::with_capacity(k);
    for j in 0..k {
        let t = r.positive("bucket interval")?;
        if let Some(&(prev, _)) = changed.last()
            && t <= prev
        {
            return Err(bad(format!(
                "bucket {j}'s interval {} does not exceed bucket {}'s {}",
                Num(t),
                j - 1,
                Num(prev)
            )));
        }
        let c = r.varint("bucket count")?;
        if c == 0 {
            return Err(bad(format!("bucket {j} has count 0")));
        }
        changed.push((t, c));
    }
    Ok(changed)
}

/// Σ counts, refused when it overflows u64.
fn changed_visits(changed: &[(f64, u64)]) -> Result<u64> {
    changed.iter().try_fold(0u64, |s, &(_, c)| {
        s.checked_add(c)
            .ok_or_else(|| bad("the bucket counts overflow 64 bits".into()))
    })
}

/// A cursor over the caller's bytes; every read names the field it wanted
/// when the bytes end first.
struct Reader<'a> {
    bytes: &'a [u8],
    pos: usize,
}

impl Reader<'_> {
    fn take(&mut self, len: usize, what: &str) -> Result<&[u8]> {
        let end = self.pos.saturating_add(len);
        let Some(s) = self.bytes.get(self.pos..end) else {
            return Err(bad(format!(
                "truncated: {} bytes end inside the {what} at offset {}",
                self.bytes.len(),
                self.pos
            )));
        };
        self.pos = end;
        Ok(s)
    }

    fn byte(&mut self, what: &str) -> Result<u8> {
        Ok(self.take(1, what)?[0])
    }

    /// A finite f64 ≥ +0 (NaN, infinities, negatives and -0 refused).
    fn f64(&mut self, what: &str) -> Result<f64> {
        let at = self.pos;
        let mut b = [0u8; 8];
        b.copy_from_slice(self.take(8, what)?);
        let x = f64::from_le_bytes(b);
        if x.is_finite() && x.is_sign_positive() {
            Ok(x)
        } else {
            Err(bad(format!(
                "{what} at offset {at} must be finite and >= 0, got {}",
                Num(x)
            )))
        }
    }

    /// A finite f64 > 0.
    fn positive(&mut self, what: &str) -> Result<f64> {
        let at = self.pos;
        let x = self.f64(what)?;
        if x > 0.0 {
            Ok(x)
        } else {
            Err(bad(format!("{what} at offset {at} must be > 0, got 0")))
        }
    }

    /// A minimal unsigned LEB128 of at most 10 bytes that fits a u64.
    fn varint(&mut self, what: &str) -> Result<u64> {
        let at = self.pos;
        let mut v: u64 = 0;
        for i in 0..10 {
            let b = self.byte(what)?;
            let group = u64::from(b & 0x7f);
            if i == 9 && b > 1 {
                return Err(bad(format!("{what} at offset {at} overflows 64 bits")));
            }
            v |= group << (7 * i);
            if b & 0x80 == 0 {
                if b == 0 && i > 0 {
                    return Err(bad(format!(
                        "{what} at offset {at} is not minimally encoded"
                    )));
                }
                return Ok(v);
            }
        }
        Err(bad(format!("{what} at offset {at} overflows 64 bits")))
    }
}

/// Appends `v` as unsigned LEB128.
fn put_varint(out: &mut Vec<u8>, mut v: u64) {
    while v >= 0x80 {
        out.push((v as u8 & 0x7f) | 0x80);
        v >>= 7;
    }
    out.push(v as u8);
}

const ALPHABET: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";

/// Unpadded base64url of `bytes`.
fn base64url(bytes: &[u8]) -> String {
    let mut s = String::with_capacity(bytes.len().div_ceil(3) * 4);
    for chunk in bytes.chunks(3) {
        let b = [
            chunk[0],
            *chunk.get(1).unwrap_or(&0),
            *chunk.get(2).unwrap_or(&0),
        ];
        let v = u32::from(b[0]) << 16 | u32::from(b[1]) << 8 | u32::from(b[2]);
        for i in 0..=chunk.len() {
            s.push(ALPHABET[(v >> (18 - 6 * i) & 63) as usize] as char);
        }
    }
    s
}

/// The bytes of unpadded base64url `text`; unused trailing bits must be 0
/// (canonical: one text per byte string).
fn from_base64url(text: &str) -> Result<Vec<u8>> {
    let bad_text = |reason: String| Error::invalid(format!("text: {reason}"));
    if text.len() > MAX_STATE_TEXT_CHARS {
        return Err(bad_text(format!(
            "{} characters, an estimator state takes at most {MAX_STATE_TEXT_CHARS}",
            text.len()
        )));
    }
    if text.len() % 4 == 1 {
        return Err(bad_text(format!(
            "length {} is not a base64url length",
            text.len()
        )));
    }
    let mut out = Vec::with_capacity(text.len() / 4 * 3 + 2);
    let mut acc: u32 = 0;
    let mut bits = 0;
    for (i, c) in text.bytes().enumerate() {
        let Some(v) = ALPHABET.iter().position(|&a| a == c) else {
            return Err(bad_text(format!(
                "byte {c:#04x} at offset {i} is not a base64url character"
            )));
        };
        acc = (acc << 6 | v as u32) & 0xff_ffff;
        bits += 6;
        if bits >= 8 {
            bits -= 8;
            out.push((acc >> bits) as u8);
        }
    }
    if acc & ((1 << bits) - 1) != 0 {
        return Err(bad_text("nonzero bits after the last byte".into()));
    }
    Ok(out)
}
