//! The average cost of a periodic routing sequence, eq. (6):
//! g(π) = (1/n) Σ_m Σ_j f_m(δ_j^m), with δ^m the cyclic distance sequence of
//! server m (gaps between its successive assignments, wrapping around).
//!
//! A server absent from the period costs lim f_m(k)/k per packet: the
//! terminal cost (1) c_T = Σ f_a(x_a) divided by T. That is 0 for losses and
//! c_m E τ for robot scheduling (the page is always stale), and unbounded
//! when f_m grows superlinearly (Condition (2)), which Theorem 3.1 (i)
//! excludes; such a sequence is refused as [`Error::Infeasible`].

use super::system::{CostTable, MAX_PERIOD, RoutingSystem};
use crate::error::{Error, Num, Result};

/// The exact cost of a periodic sequence.
#[derive(Debug, Clone, PartialEq)]
pub struct Evaluation {
    /// g(π), eq. (6): average cost per packet (routing decision).
    pub per_packet: f64,
    /// g(π) λ: average cost per unit time (losses per unit time, or the
    /// weighted stale fraction Σ c_i r_i for robot scheduling).
    pub per_unit_time: f64,
    /// Servers that never appear in the period (never visited).
    pub unvisited: Vec<usize>,
}

/// Checks a sequence of server indices against M servers.
pub(super) fn check_sequence(seq: &[usize], servers: usize) -> Result<()> {
    if seq.is_empty() {
        return Err(Error::invalid("the routing sequence is empty"));
    }
    if seq.len() > MAX_PERIOD {
        return Err(Error::TooLarge(format!(
            "period {} exceeds the limit {MAX_PERIOD}",
            seq.len()
        )));
    }
    if let Some((i, &s)) = seq.iter().enumerate().find(|&(_, &s)| s >= servers) {
        return Err(Error::invalid(format!(
            "seq[{i}] = {s} but there are only {servers} servers"
        )));
    }
    Ok(())
}

/// The cyclic distance sequences δ^m of every server (empty if absent).
pub fn distance_sequences(seq: &[usize], servers: usize) -> Result<Vec<Vec<usize>>> {
    check_sequence(seq, servers)?;
    let n = seq.len();
    let mut first = vec![usize::MAX; servers];
    let mut last = vec![usize::MAX; servers];
    let mut d: Vec<Vec<usize>> = vec![Vec::new(); servers];
    for (i, &s) in seq.iter().enumerate() {
        if last[s] == usize::MAX {
            first[s] = i;
        } else {
            d[s].push(i - last[s]);
        }
        last[s] = i;
    }
    for s in 0..servers {
        if last[s] != usize::MAX {
            d[s].push(first[s] + n - last[s]);
        }
    }
    Ok(d)
}

/// n·g(π) from a table with kmax ≥ n: the cost of one period. Absent
/// servers add n·slope; `None` when one of them has an unbounded slope.
pub(crate) fn period_total(table: &CostTable, seq: &[usize]) -> Option<f64> {
    let n = seq.len();
    let m = table.servers();
    let mut first = vec![usize::MAX; m];
    let mut last = vec![usize::MAX; m];
    let mut total = 0.0;
    for (i, &s) in seq.iter().enumerate() {
        if last[s] == usize::MAX {
            first[s] = i;
        } else {
            total += table.value(s, i - last[s]);
        }
        last[s] = i;
    }
    for s in 0..m {
        if last[s] == usize::MAX {
            total += n as f64 * table.slope(s)?;
        } else {
            total += table.value(s, first[s] + n - last[s]);
        }
    }
    Some(total)
}

/// The exact cost of repeating `seq` (server indices) forever, eq. (6).
pub fn evaluate(system: &RoutingSystem, seq: &[usize]) -> Result<Evaluation> {
    check_sequence(seq, system.len())?;
    let table = system.table(seq.len())?;
    evaluate_with(system, &table, seq)
}

/// As [`evaluate`] with a precomputed table (kmax ≥ seq.len()).
pub fn evaluate_with(
    system: &RoutingSystem,
    table: &CostTable,
    seq: &[usize],
) -> Result<Evaluation> {
    check_sequence(seq, system.len())?;
    if table.kmax() < seq.len() || table.servers() != system.len() {
        return Err(Error::invalid(
            "the cost table does not cover this sequence",
        ));
    }
    let mut seen = vec![false; system.len()];
    for &s in seq {
        seen[s] = true;
    }
    let unvisited: Vec<usize> = (0..system.len()).filter(|&m| !seen[m]).collect();
    let total = period_total(table, seq).ok_or_else(|| {
        let m = unvisited
            .iter()
            .find(|&&m| table.slope(m).is_none())
            .copied()
            .unwrap_or(0);
        Error::Infeasible(format!(
            "server {m} never appears in the period and its cost grows faster than linearly: \
             the average cost is unbounded (Theorem 3.1 (i))"
        ))
    })?;
    let per_packet = total / seq.len() as f64;
    if !per_packet.is_finite() {
        return Err(Error::Numerical(format!(
            "the cost is not finite ({})",
            Num(per_packet)
        )));
    }
    Ok(Evaluation {
        per_packet,
        per_unit_time: per_packet * system.arrivals().rate(),
        unvisited,
    })
}
