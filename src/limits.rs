//! Resource limits and cancellation for long or large computations.
//!
//! A [`Control`] carries three things a caller may want to impose on a
//! computation: a memory cap (bytes), an iteration cap, and a cancel flag
//! that another thread may raise while the computation runs. Clones share
//! the same flag and limits (an `Arc` of atomics), so a caller keeps one
//! clone and hands another to the solver.
//!
//! Memory: every large computation estimates the bytes it will hold
//! (checked arithmetic, before allocating) and refuses with
//! [`Error::TooLarge`] when the estimate exceeds the effective cap: the
//! control's own cap if set, else the process-wide default
//! ([`set_default_memory_limit`]). The default starts at the machine's
//! physical memory (Linux `/proc/meminfo`; unlimited where unknown): a
//! computation that needs more than all of RAM would swap the host to a
//! halt or be killed by the OOM killer, so refusing it is always better,
//! while anything that fits is still allowed. Estimates count the main
//! arrays, not every temporary, so a cap is a guard, not an exact budget.
//!
//! Cancellation and the iteration cap are checked at natural iteration
//! points (a sweep, an evaluation, a search step): one relaxed atomic load,
//! so checking costs nothing measurable.

#![forbid(unsafe_code)]

use crate::error::{Error, Num, Result};
use std::sync::Arc;
use std::sync::OnceLock;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};

/// The process-wide default memory cap in bytes; 0 means unlimited.
/// `u64::MAX` marks "not initialised yet" (then read from the machine).
static DEFAULT_LIMIT: AtomicU64 = AtomicU64::new(u64::MAX);
static PHYSICAL: OnceLock<u64> = OnceLock::new();

/// Physical memory in bytes, or 0 (unlimited) if unknown.
fn physical_memory() -> u64 {
    *PHYSICAL.get_or_init(|| {
        let text = std::fs::read_to_string("/proc/meminfo").unwrap_or_default();
        text.lines()
            .find_map(|l| l.strip_prefix("MemTotal:"))
            .and_then(|rest| {
                rest.trim()
                    .trim_end_matches("kB")
                    .trim()
                    .parse::<u64>()
                    .ok()
            })
            .map_or(0, |kib| kib.saturating_mul(1024))
    })
}

/// The process-wide default memory cap in bytes (`None`: unlimited). It
/// applies to every computation whose [`Control`] sets no cap of its own.
pub fn default_memory_limit() -> Option<u64> {
    let v = match DEFAULT_LIMIT.load(Ordering::Relaxed) {
        u64::MAX => physical_memory(),
        v => v,
    };
    (v != 0).then_some(v)
}

/// Sets the process-wide default memory cap (`None`: unlimited).
/// Thread-safe; computations already running keep the cap they started with.
pub fn set_default_memory_limit(bytes: Option<u64>) {
    // u64::MAX is the "unset" marker: an explicit cap that large is unlimited anyway.
    let v = match bytes {
        None | Some(u64::MAX) => 0,
        Some(b) => b,
    };
    DEFAULT_LIMIT.store(v, Ordering::Relaxed);
}

#[derive(Debug, Default)]
struct Shared {
    cancelled: AtomicBool,
    /// 0: use the process-wide default.
    memory_limit: AtomicU64,
    /// 0: no cap beyond the computation's own.
    max_iterations: AtomicU64,
}

/// Limits and a cancel flag for computations; see the module docs.
/// `Control::default()` has no flag and no limits of its own (the
/// process-wide memory cap still applies). Clones share state.
#[derive(Clone, Default)]
pub struct Control {
    shared: Option<Arc<Shared>>,
}

impl std::fmt::Debug for Control {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Control")
            .field("cancelled", &self.is_cancelled())
            .field("memory_limit", &self.memory_limit())
            .field("max_iterations", &self.max_iterations())
            .finish()
    }
}

/// Two controls are equal when they share state (or both have none).
impl PartialEq for Control {
    fn eq(&self, other: &Self) -> bool {
        match (&self.shared, &other.shared) {
            (None, None) => true,
            (Some(a), Some(b)) => Arc::ptr_eq(a, b),
            _ => false,
        }
    }
}

impl Control {
    /// A fresh control: not cancelled, no limits of its own.
    pub fn new() -> Self {
        Control {
            shared: Some(Arc::new(Shared::default())),
        }
    }

    /// Asks every computation using this control (or a clone) to stop at
    /// its next check. Thread-safe. A control without state (the default)
    /// cannot be cancelled: this is then a no-op.
    pub fn cancel(&self) {
        if let Some(s) = &self.shared {
            s.cancelled.store(true, Ordering::Relaxed);
        }
    }

    /// Clears the cancel flag (limits are kept), so the control can be reused.
    pub fn reset(&self) {
        if let Some(s) = &self.shared {
            s.cancelled.store(false, Ordering::Relaxed);
        }
    }

    /// Whether [`Control::cancel`] was called since the last reset.
    pub fn is_cancelled(&self) -> bool {
        self.shared
            .as_ref()
            .is_some_and(|s| s.cancelled.load(Ordering::Relaxed))
    }

    /// Memory cap in bytes for computations using this control (`None`:
    /// the process-wide default). No effect on a default (stateless) control.
    pub fn set_memory_limit(&self, bytes: Option<u64>) {
        self.store_setting(|s| &s.memory_limit, bytes);
    }

    /// The control's own memory cap, if set.
    pub fn memory_limit(&self) -> Option<u64> {
        self.load_setting(|s| &s.memory_limit)
    }

    /// The cap that applies: the control's own, else the process default.
    pub fn effective_memory_limit(&self) -> Option<u64> {
        self.memory_limit().or_else(default_memory_limit)
    }

    /// Iteration cap (`None`: only the computation's own limit applies).
    /// What an iteration is depends on the computation (a sweep of value
    /// iteration, an improvement step of policy iteration, ...).
    pub fn set_max_iterations(&self, n: Option<u64>) {
        self.store_setting(|s| &s.max_iterations, n);
    }

    /// The control's iteration cap, if set.
    pub fn max_iterations(&self) -> Option<u64> {
        self.load_setting(|s| &s.max_iterations)
    }

    /// Stores an optional setting (0 encodes `None`); no effect on a
    /// default control.
    fn store_setting(&self, field: impl Fn(&Shared) -> &AtomicU64, value: Option<u64>) {
        if let Some(s) = &self.shared {
            field(s).store(value.unwrap_or(0), Ordering::Relaxed);
        }
    }

    /// Reads an optional setting (0 encodes `None`).
    fn load_setting(&self, field: impl Fn(&Shared) -> &AtomicU64) -> Option<u64> {
        self.shared
            .as_ref()
            .map(|s| field(s).load(Ordering::Relaxed))
            .filter(|&v| v != 0)
    }

    /// `limit` lowered to the control's iteration cap.
    pub fn iteration_limit(&self, limit: usize) -> usize {
        match self.max_iterations() {
            Some(m) => limit.min(usize::try_from(m).unwrap_or(usize::MAX)),
            None => limit,
        }
    }

    /// `Cancelled` if the flag is raised; `what` and `done` go to the message.
    pub fn check(&self, what: &str, done: u64) -> Result<()> {
        if self.is_cancelled() {
            return Err(Error::Cancelled(format!(
                "{what} cancelled after {done} iterations"
            )));
        }
        Ok(())
    }

    /// [`Control::check`], then `NotConverged` once `done` iterations have
    /// reached the control's iteration cap: call it before each iteration,
    /// so that a cap of n lets exactly n run.
    pub fn step(&self, what: &str, done: u64) -> Result<()> {
        self.check(what, done)?;
        match self.max_iterations() {
            Some(cap) if done >= cap => Err(Error::NotConverged(format!(
                "{what} stopped at the iteration cap of {cap}"
            ))),
            _ => Ok(()),
        }
    }

    /// `TooLarge` when `bytes` (an estimate, `None` if it overflowed)
    /// exceeds the effective cap. `what` says what needs the memory, e.g.
    /// "a threshold chain of 10000000 states".
    pub fn check_memory(&self, bytes: Option<u128>, what: &str) -> Result<()> {
        let limit = self.effective_memory_limit();
        match (bytes, limit) {
            (None, _) => Err(Error::TooLarge(format!(
                "{what} needs more memory than the address space"
            ))),
            (Some(b), Some(l)) if b > u128::from(l) => Err(Error::TooLarge(format!(
                "{what} needs {}, memory limit {}",
                amount(b),
                amount(u128::from(l))
            ))),
            (Some(b), _) if b > isize::MAX as u128 => Err(Error::TooLarge(format!(
                "{what} needs {}, more than the address space",
                amount(b)
            ))),
            _ => Ok(()),
        }
    }
}

/// `check_memory` with the process default only (for calls without a control).
pub fn check_memory(bytes: Option<u128>, what: &str) -> Result<()> {
    Control::default().check_memory(bytes, what)
}

/// Bytes of `count` items of `each` bytes, checked.
pub fn bytes(count: impl TryInto<u128>, each: u128) -> Option<u128> {
    count.try_into().ok()?.checked_mul(each)
}

/// A byte count for messages: "512 bytes", or "~3.5 GiB (3759999984 bytes)";
/// counts beyond 10^16 bytes print as doubles (no digit run over 17).
fn amount(b: u128) -> String {
    if b < 1 << 20 {
        format!("{b} bytes")
    } else if b < 10u128.pow(16) {
        format!("~{} ({b} bytes)", human(b))
    } else {
        format!("~{} ({} bytes)", human(b), Num(b as f64))
    }
}

/// A byte count for messages: MiB below 1 GiB, else GiB, one decimal;
/// beyond 10^6 GiB a double.
pub fn human(b: u128) -> String {
    const MIB: f64 = 1024.0 * 1024.0;
    let x = b as f64;
    let gib = x / (1024.0 * MIB);
    if x < 1024.0 * MIB {
        format!("{:.1} MiB", x / MIB)
    } else if gib < 1e6 {
        format!("{gib:.1} GiB")
    } else {
        format!("{} GiB", Num(gib))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn clones_share_the_flag_and_reset_clears_it() {
        let c = Control::new();
        let d = c.clone();
        assert!(!d.is_cancelled());
        c.cancel();
        assert!(d.is_cancelled());
        assert!(
            matches!(d.check("x", 3), Err(Error::Cancelled(m)) if m.contains("after 3 iterations"))
        );
        d.reset();
        assert!(!c.is_cancelled());
        assert_eq!(c, d);
        assert_ne!(c, Control::new());
        // The stateless default cannot be cancelled.
        let none = Control::default();
        none.cancel();
        assert!(!none.is_cancelled());
    }

    #[test]
    fn cancel_from_another_thread_is_seen() {
        let c = Control::new();
        let d = c.clone();
        std::thread::spawn(move || d.cancel()).join().unwrap();
        assert!(c.is_cancelled());
    }

    #[test]
    fn memory_check_reports_need_and_limit() {
        let c = Control::new();
        c.set_memory_limit(Some(1 << 20));
        let e = c
            .check_memory(Some(3 << 30), "a chain of 10 states")
            .unwrap_err();
        let Error::TooLarge(m) = e else {
            panic!("{e:?}")
        };
        assert!(
            m.contains("a chain of 10 states needs ~3.0 GiB (3221225472 bytes)"),
            "{m}"
        );
        assert!(m.contains("memory limit ~1.0 MiB (1048576 bytes)"), "{m}");
        assert!(c.check_memory(Some(1 << 20), "x").is_ok());
        assert!(matches!(c.check_memory(None, "x"), Err(Error::TooLarge(_))));
        // Beyond the address space even without any cap.
        c.set_memory_limit(Some(u64::MAX));
        assert!(matches!(
            c.check_memory(Some(u128::MAX / 2), "x"),
            Err(Error::TooLarge(_))
        ));
    }

    #[test]
    fn huge_byte_counts_print_as_doubles() {
        assert_eq!(amount(512), "512 bytes");
        assert_eq!(amount(3 << 30), "~3.0 GiB (3221225472 bytes)");
        let m = amount(7_299_265_713_743_102_738_560);
        assert_eq!(m, "~6797970937325.715 GiB (7.299265713743103e21 bytes)");
        let m = amount(u128::MAX);
        let run = m.split(|c: char| !c.is_ascii_digit()).map(str::len).max();
        assert!(run.unwrap() <= 17, "{m}");
    }

    #[test]
    fn iteration_cap_lowers_the_limit() {
        let c = Control::new();
        assert_eq!(c.iteration_limit(100), 100);
        c.set_max_iterations(Some(7));
        assert_eq!(c.iteration_limit(100), 7);
        assert_eq!(c.iteration_limit(5), 5);
        c.set_max_iterations(None);
        assert_eq!(c.max_iterations(), None);
    }

    #[test]
    fn step_counts_against_the_cap_then_checks_the_flag() {
        let c = Control::new();
        c.set_max_iterations(Some(3));
        assert!((0..3).all(|i| c.step("x", i).is_ok()));
        assert!(
            matches!(c.step("x", 3), Err(Error::NotConverged(m)) if m == "x stopped at the iteration cap of 3")
        );
        c.cancel();
        assert!(matches!(c.step("x", 0), Err(Error::Cancelled(_))));
        assert!(Control::default().step("x", u64::MAX).is_ok());
    }

    #[test]
    fn physical_memory_is_read_on_linux() {
        if cfg!(target_os = "linux") {
            assert!(physical_memory() > 1 << 20);
        }
    }
}
