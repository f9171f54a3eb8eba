//! The closed form (10) of Theorem 3.4 (Coffman, Liu, Weber): with cost
//! weights proportional to the change rates, c_i = c₀ μ_i, the optimal
//! access frequencies are f_i = ln h_i / Σ_j ln h_j.

use super::Model;

/// The closed form (10) of Theorem 3.4: f_i = ln h_i / Σ_j ln h_j, optimal
/// for problem (7) when c_i = c₀ μ_i. Valid for any weights as a formula,
/// but optimal only for proportional ones.
pub fn proportional_frequencies(model: &Model) -> Vec<f64> {
    // Scale by the largest a_i so that the sum cannot overflow.
    let log_h = model.log_h();
    let amax = log_h.iter().fold(0.0_f64, |m, l| m.max(-l));
    let mut f: Vec<f64> = log_h.iter().map(|l| -l / amax).collect();
    let total: f64 = f.iter().sum();
    for v in &mut f {
        *v /= total;
    }
    f
}
