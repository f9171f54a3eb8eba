//! The arrival process when r of the available robots are active, built
//! from a description of the robots: the four interpretations of
//! Avrachenkov et al. (paper 002, §2, items 1–4). Each returns one BMAP per
//! number of active robots r = 1..=R (index r − 1), all on the same phase
//! space, so that the threshold model can switch between them while the
//! phase is kept.

use super::Bmap;
use super::bmap::check_build;
use crate::error::{Error, Num, Result};
use nalgebra::DMatrix;
use std::borrow::Borrow;

/// Largest phase space [`independent`] builds (the product grows like Wᴿ).
pub const MAX_COMPOSED_PHASES: usize = 4096;

/// Most robots R a one-BMAP composition ([`independent_active`],
/// [`scaled_active`]) describes.
pub const MAX_ROBOTS: usize = 64;

/// 1 ≤ `active` ≤ `total` ≤ [`MAX_ROBOTS`].
fn check_active(active: usize, total: usize) -> Result<()> {
    if !(1..=total).contains(&active) || total > MAX_ROBOTS {
        return Err(Error::invalid(format!(
            "need 1 <= active <= total <= {MAX_ROBOTS}, got active = {active}, total = {total}"
        )));
    }
    Ok(())
}

/// I_a ⊗ X ⊗ I_b.
fn embed(x: &DMatrix<f64>, before: usize, after: usize) -> DMatrix<f64> {
    DMatrix::<f64>::identity(before, before)
        .kronecker(x)
        .kronecker(&DMatrix::<f64>::identity(after, after))
}

/// Interpretation 1: robots deliver as independent BMAPs, robot q having
/// `robots[q]`; robot 1 is always active, robot r is activated r-th. With r
/// active, the joint phase is the product of all R robots' phases; active
/// robots contribute D₀⁽q⁾ (moves) and D_j⁽q⁾ (batches), inactive robots
/// keep travelling (their phase moves with their full generator D⁽q⁾) but
/// their deliveries are not accepted. So D₀(r) = ⊕_{q≤r} D₀⁽q⁾ ⊕_{q>r} D⁽q⁾
/// and D_j(r) = Σ_{q≤r} I ⊗ D_j⁽q⁾ ⊗ I (Kronecker sum).
pub fn independent(robots: &[Bmap]) -> Result<Vec<Bmap>> {
    if robots.is_empty() {
        return Err(Error::invalid("at least one robot is needed"));
    }
    // All R results are kept: check them together (each call checks its own).
    let (total, matrices) = joint_size(robots)?;
    check_build(total, matrices, robots.len() as u128 + 2)?;
    (1..=robots.len())
        .map(|r| independent_active(robots, r))
        .collect()
}

/// The BMAP of [`independent`] for `r` active robots only, 1 ≤ r ≤ R ≤
/// [`MAX_ROBOTS`] (R = `robots.len()`): one dense solve on up to
/// [`MAX_COMPOSED_PHASES`] phases instead of R.
/// Robots may be given by value or by reference (`&[&Bmap]`: copies of one
/// robot are composed without cloning it).
pub fn independent_active<B: Borrow<Bmap>>(robots: &[B], r: usize) -> Result<Bmap> {
    check_active(r, robots.len())?;
    let (total, matrices) = joint_size(robots)?;
    // d below, the copies of Bmap::from_matrices, and the Kronecker
    // temporaries (within the working matrices of check_build): checked
    // before d is allocated (1000 batch matrices on 4096 phases are 134 GB).
    check_build(total, matrices, 3)?;
    let kmax = matrices - 1;
    let orders: Vec<usize> = robots.iter().map(|b| b.borrow().order()).collect();
    let mut d = vec![DMatrix::zeros(total, total); kmax + 1];
    let mut before = 1;
    for (q, b) in robots.iter().enumerate() {
        let b = b.borrow();
        let after = total / (before * orders[q]);
        if q < r {
            for (j, m) in b.matrices().iter().enumerate() {
                d[j] += embed(m, before, after);
            }
        } else {
            d[0] += embed(&b.generator(), before, after);
        }
        before *= orders[q];
    }
    // An inactive robot's diagonal may cancel (a one-phase robot has
    // D = 0); the joint D₀ diagonal stays negative as robot 1 is active.
    Bmap::from_matrices(&d)
}

/// [`independent_active`] for `total` copies of one `robot`, checked
/// before the copies are gathered.
pub fn independent_copies_active(robot: &Bmap, r: usize, total: usize) -> Result<Bmap> {
    check_active(r, total)?;
    independent_active(&vec![robot; total], r)
}

/// (joint phases, matrices D0..Dk) of independent robots: the product of
/// their orders (`TooLarge` above [`MAX_COMPOSED_PHASES`]) and 1 + the
/// largest batch.
fn joint_size<B: Borrow<Bmap>>(robots: &[B]) -> Result<(usize, usize)> {
    let mut total: usize = 1;
    for b in robots {
        total = total
            .checked_mul(b.borrow().order())
            .filter(|&t| t <= MAX_COMPOSED_PHASES)
            .ok_or_else(|| {
                Error::TooLarge(format!(
                    "the joint phase space of {} independent robots exceeds {MAX_COMPOSED_PHASES} phases",
                    robots.len()
                ))
            })?;
    }
    let kmax = robots
        .iter()
        .map(|b| b.borrow().max_batch())
        .max()
        .unwrap_or(1);
    Ok((total, kmax + 1))
}

/// Interpretation 2: one common BMAP `common` for all robots; with r
/// active, each batch is accepted with probability `probs[r − 1]` and
/// otherwise discarded: D₀(r) = D₀ + (1 − p_r) Σ_{j≥1} D_j, D_j(r) = p_r D_j.
pub fn thinning(common: &Bmap, probs: &[f64]) -> Result<Vec<Bmap>> {
    crate::validate::non_empty("probs", probs)?;
    // Every result is kept; each is built through two more copies.
    check_build(
        common.order(),
        common.matrices().len(),
        (probs.len() as u128).saturating_add(3),
    )?;
    let mut out = Vec::with_capacity(probs.len());
    for (i, &p) in probs.iter().enumerate() {
        if !(p > 0.0 && p <= 1.0) {
            return Err(Error::invalid(format!(
                "probs[{i}] must be in (0, 1], got {}",
                Num(p)
            )));
        }
        let mut d: Vec<DMatrix<f64>> = common.matrices().to_vec();
        d[0] += common.batch_matrix() * (1.0 - p);
        for m in d.iter_mut().skip(1) {
            *m *= p;
        }
        out.push(Bmap::from_matrices(&d)?);
    }
    Ok(out)
}

/// Interpretation 3: a marked BMAP. `d0` holds the moves without delivery;
/// `marked[q][j − 1]` the rates of the moves that deliver a batch of j
/// pages from robot q + 1. With r active, batches marked by robots > r are
/// discarded (the move happens, no page arrives):
/// D₀(r) = D₀ + Σ_{q>r} Σ_j D_{j,q}, D_j(r) = Σ_{q≤r} D_{j,q}.
pub fn marked(d0: &DMatrix<f64>, marked: &[Vec<DMatrix<f64>>]) -> Result<Vec<Bmap>> {
    if marked.is_empty() {
        return Err(Error::invalid(
            "at least one robot's marked matrices are needed",
        ));
    }
    let n = d0.nrows();
    let kmax = marked.iter().map(|m| m.len()).max().unwrap_or(0).max(1);
    check_build(n, kmax + 1, (marked.len() as u128).saturating_add(3))?;
    let mut out = Vec::with_capacity(marked.len());
    for r in 1..=marked.len() {
        let mut d = vec![DMatrix::zeros(n, n); kmax + 1];
        d[0] = d0.clone();
        for (q, mats) in marked.iter().enumerate() {
            for (j, m) in mats.iter().enumerate() {
                if m.nrows() != n || m.ncols() != n {
                    return Err(Error::invalid(format!("marked[{q}][{j}] is not {n}x{n}")));
                }
                if q < r {
                    d[j + 1] += m;
                } else {
                    d[0] += m;
                }
            }
        }
        out.push(Bmap::from_matrices(&d)?);
    }
    Ok(out)
}

/// Interpretation 4: the process with r active robots is any BMAP D_k(r)
/// on a common phase space; this checks that the orders agree.
pub fn per_mode(processes: Vec<Bmap>) -> Result<Vec<Bmap>> {
    let n = processes
        .first()
        .map(Bmap::order)
        .ok_or_else(|| Error::invalid("no processes given"))?;
    if let Some(i) = processes.iter().position(|b| b.order() != n) {
        return Err(Error::invalid(format!(
            "process {i} has {} phases, process 0 has {n}",
            processes[i].order()
        )));
    }
    Ok(processes)
}

/// A common special case of interpretation 4 (used for the paper's
/// examples): r robots run the one-robot process r times faster,
/// D_k(r) = r·D_k, so the rate is r·λ and correlations are unchanged.
pub fn scaled(robot: &Bmap, robots: usize) -> Result<Vec<Bmap>> {
    if robots == 0 {
        return Err(Error::invalid("at least one robot is needed"));
    }
    (1..=robots)
        .map(|r| scaled_active(robot, r, robots))
        .collect()
}

/// The BMAP of [`scaled`]`(robot, total)` for `r` active robots only,
/// 1 ≤ r ≤ total ≤ [`MAX_ROBOTS`].
pub fn scaled_active(robot: &Bmap, r: usize, total: usize) -> Result<Bmap> {
    check_active(r, total)?;
    check_build(robot.order(), robot.matrices().len(), 3)?;
    let d: Vec<DMatrix<f64>> = robot.matrices().iter().map(|m| m * r as f64).collect();
    Bmap::from_matrices(&d)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// In every interpretation, Poisson robots of rate λ give Poisson(rλ)
    /// (or the thinned/marked rate) with r active.
    #[test]
    fn poisson_cases() {
        let lam = 0.7;
        let p = Bmap::poisson(lam).unwrap();
        let ind = independent(&[p.clone(), p.clone(), p.clone()]).unwrap();
        for (i, b) in ind.iter().enumerate() {
            assert!((b.fundamental_rate() - (i + 1) as f64 * lam).abs() < 1e-14);
            assert!(
                (b.interarrival_variance() - 1.0 / ((i + 1) as f64 * lam).powi(2)).abs() < 1e-12
            );
        }
        // Two-phase robots: the product has 4 phases; independent Poisson-like
        // MMPP robots superpose to the sum of rates.
        let m = Bmap::mmpp(&[-1.0, 1.0, 2.0, -2.0], &[0.5, 3.0]).unwrap();
        let ind = independent(&[m.clone(), m.clone()]).unwrap();
        assert_eq!(ind[0].order(), 4);
        assert!((ind[0].fundamental_rate() - m.fundamental_rate()).abs() < 1e-12);
        assert!((ind[1].fundamental_rate() - 2.0 * m.fundamental_rate()).abs() < 1e-12);
        // One BMAP alone (what the C API builds) is the one of the full list.
        for r in 1..=2 {
            assert_eq!(
                independent_active(&[m.clone(), m.clone()], r)
                    .unwrap()
                    .matrices(),
                ind[r - 1].matrices()
            );
            assert_eq!(
                scaled_active(&m, r, 2).unwrap().matrices(),
                scaled(&m, 2).unwrap()[r - 1].matrices()
            );
        }
        assert!(independent_active(std::slice::from_ref(&m), 2).is_err());
        assert!(independent_active(std::slice::from_ref(&m), 0).is_err());

        let common = Bmap::poisson(4.0).unwrap();
        let th = thinning(&common, &[0.25, 0.5, 1.0]).unwrap();
        for (b, want) in th.iter().zip([1.0, 2.0, 4.0]) {
            assert!((b.fundamental_rate() - want).abs() < 1e-14);
            assert!(b.lag_correlation(1).unwrap().abs() < 1e-12);
        }
        assert!(thinning(&common, &[0.0]).is_err());

        // Marked Poisson: robot q delivers single pages at rate q.
        let d0 = DMatrix::from_element(1, 1, -6.0);
        let mk: Vec<Vec<DMatrix<f64>>> = (1..=3)
            .map(|q| vec![DMatrix::from_element(1, 1, q as f64)])
            .collect();
        let mp = marked(&d0, &mk).unwrap();
        for (b, want) in mp.iter().zip([1.0, 3.0, 6.0]) {
            assert!((b.fundamental_rate() - want).abs() < 1e-14);
        }

        let sc = scaled(&p, 4).unwrap();
        assert!((sc[3].fundamental_rate() - 4.0 * lam).abs() < 1e-14);
        assert!(per_mode(vec![p.clone(), m.clone()]).is_err());
        let too_many = vec![m.clone(); 13];
        assert!(matches!(independent(&too_many), Err(Error::TooLarge(_))));
    }

    /// At most 64 robots, 1 ≤ active ≤ total, for a Rust caller as for C.
    #[test]
    fn robot_counts_are_checked() {
        let p = Bmap::poisson(1.0).unwrap();
        let refused = |r: Result<Bmap>, active: usize, total: usize| {
            let want =
                format!("need 1 <= active <= total <= 64, got active = {active}, total = {total}");
            assert_eq!(r.unwrap_err(), Error::InvalidArgument(want));
        };
        refused(independent_copies_active(&p, 1, 65), 1, 65);
        refused(independent_copies_active(&p, 0, 2), 0, 2);
        refused(independent_copies_active(&p, 3, 2), 3, 2);
        refused(scaled_active(&p, 1, 65), 1, 65);
        refused(scaled_active(&p, 2, 1), 2, 1);
        refused(independent_active(&vec![&p; 65], 1), 1, 65);
        assert!(scaled(&p, 65).is_err());
        // 64 one-phase robots, all active: Poisson of rate 64.
        let all = independent_copies_active(&p, 64, 64).unwrap();
        assert!((all.fundamental_rate() - 64.0).abs() < 1e-12);
        assert!((scaled_active(&p, 64, 64).unwrap().fundamental_rate() - 64.0).abs() < 1e-12);
    }
}
