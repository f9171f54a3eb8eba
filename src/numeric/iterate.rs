//! A driver for iterative solvers: a step function applied to the solver's
//! state until its stopping rule holds, the iteration limit is reached or
//! the control is cancelled.

use crate::limits::Control;

/// What one step concluded.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Step {
    /// Not done: run another step.
    Continue,
    /// The stopping rule holds.
    Converged,
    /// The method cannot usefully continue (values no longer finite, or the
    /// caller continues with another method); not converged.
    Stop,
}

/// How a run ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Outcome {
    /// A step reported [`Step::Converged`].
    Converged,
    /// A step reported [`Step::Stop`].
    Stopped,
    /// The iteration limit was reached.
    Capped,
    /// The control was cancelled before a step.
    Cancelled,
}

/// The end of a run.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Run {
    /// Iterations spent in all, including those already spent at the start.
    pub iterations: usize,
    /// The limit that applied: the caller's, lowered to the control's cap.
    pub limit: usize,
    /// Why the run ended.
    pub outcome: Outcome,
}

impl Run {
    pub(crate) fn converged(&self) -> bool {
        self.outcome == Outcome::Converged
    }
    pub(crate) fn cancelled(&self) -> bool {
        self.outcome == Outcome::Cancelled
    }
}

/// Runs `step` with the number of the iteration it performs (1-based,
/// counting the `done` iterations already spent) while fewer than `limit`
/// (lowered to the control's iteration cap) are spent. The control's
/// cancel flag is checked before each step; an error of a step ends the run.
pub(crate) fn iterate<E>(
    control: &Control,
    limit: usize,
    done: usize,
    mut step: impl FnMut(usize) -> Result<Step, E>,
) -> Result<Run, E> {
    let limit = control.iteration_limit(limit);
    let mut iterations = done;
    let end = |iterations, outcome| {
        Ok(Run {
            iterations,
            limit,
            outcome,
        })
    };
    while iterations < limit {
        if control.is_cancelled() {
            return end(iterations, Outcome::Cancelled);
        }
        iterations += 1;
        match step(iterations)? {
            Step::Continue => {}
            Step::Converged => return end(iterations, Outcome::Converged),
            Step::Stop => return end(iterations, Outcome::Stopped),
        }
    }
    end(iterations, Outcome::Capped)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn never(_: usize) -> Result<Step, ()> {
        Ok(Step::Continue)
    }

    #[test]
    fn limits_counts_and_outcomes() {
        let c = Control::default();
        let run = iterate(&c, 5, 0, never).unwrap();
        assert_eq!(
            (run.iterations, run.limit, run.outcome),
            (5, 5, Outcome::Capped)
        );
        // Iterations already spent count against the limit.
        let run = iterate(&c, 5, 3, never).unwrap();
        assert_eq!((run.iterations, run.outcome), (5, Outcome::Capped));
        let run = iterate(&c, 5, 7, never).unwrap();
        assert_eq!((run.iterations, run.outcome), (7, Outcome::Capped));
        let run = iterate(&c, 10, 0, |k| {
            Ok::<_, ()>(if k == 4 {
                Step::Converged
            } else {
                Step::Continue
            })
        })
        .unwrap();
        assert_eq!((run.iterations, run.converged()), (4, true));
        let run = iterate(&c, 10, 2, |k| {
            Ok::<_, ()>(if k == 3 { Step::Stop } else { Step::Continue })
        })
        .unwrap();
        assert_eq!((run.iterations, run.outcome), (3, Outcome::Stopped));
        assert_eq!(
            iterate(&c, 10, 0, |k| if k == 2 {
                Err(k)
            } else {
                Ok(Step::Continue)
            }),
            Err(2)
        );
    }

    #[test]
    fn control_caps_and_cancels() {
        let c = Control::new();
        c.set_max_iterations(Some(3));
        let run = iterate(&c, 10, 0, never).unwrap();
        assert_eq!(
            (run.iterations, run.limit, run.outcome),
            (3, 3, Outcome::Capped)
        );
        let mut steps = 0;
        let run = iterate(&c, 10, 0, |_| {
            steps += 1;
            c.cancel();
            Ok::<_, ()>(Step::Continue)
        })
        .unwrap();
        assert_eq!((steps, run.iterations, run.cancelled()), (1, 1, true));
    }
}
