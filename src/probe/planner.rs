//! A planner for crawlers: a profile, a candidate grid and constraints;
//! ask for the optimal probe times for any budget, and re-plan after the
//! profile is re-estimated. The prefix table is built once per profile.

use super::cost::CostTable;
use super::optimal::{Problem, Schedule};
use super::profile::{PiecewiseConstant, Profile};
use crate::error::Result;
use crate::limits::Control;

/// Plans probe schedules for one information source.
#[derive(Debug, Clone)]
pub struct Planner {
    profile: Profile,
    grid: usize,
    delta: f64,
    windows: Option<Vec<(f64, f64)>>,
    problem: Problem,
}

impl Planner {
    /// `grid` = N evenly spaced candidates over `[0, T]`, spacing `delta`,
    /// optional allowed windows.
    pub fn new(
        profile: Profile,
        grid: usize,
        delta: f64,
        windows: Option<Vec<(f64, f64)>>,
    ) -> Result<Self> {
        let problem = Problem::new(
            CostTable::uniform(&profile, grid)?,
            delta,
            windows.as_deref(),
        )?;
        Ok(Planner {
            profile,
            grid,
            delta,
            windows,
            problem,
        })
    }

    /// The current profile.
    pub fn profile(&self) -> &Profile {
        &self.profile
    }

    /// Minimum spacing δ.
    pub fn delta(&self) -> f64 {
        self.delta
    }

    /// Allowed windows, if any.
    pub fn windows(&self) -> Option<&[(f64, f64)]> {
        self.windows.as_deref()
    }

    /// Attaches a control to every later plan and to the grid rebuilt when
    /// the profile or constraints change (its memory cap is checked first;
    /// the control is kept); see [`Problem::set_control`].
    /// `Control::default()` detaches it.
    pub fn set_control(&mut self, control: Control) {
        self.problem.set_control(control);
    }

    /// The attached control.
    pub fn control(&self) -> &Control {
        self.problem.control()
    }

    /// A problem for the current grid with the planner's control.
    fn rebuild(
        &self,
        profile: &Profile,
        delta: f64,
        windows: Option<&[(f64, f64)]>,
    ) -> Result<Problem> {
        super::cost::check_grid_memory_with(self.grid, self.problem.control())?;
        let mut problem = Problem::new(CostTable::uniform(profile, self.grid)?, delta, windows)?;
        problem.set_control(self.problem.control().clone());
        Ok(problem)
    }

    /// The prepared problem (9).
    pub fn problem(&self) -> &Problem {
        &self.problem
    }

    /// Optimal schedule of exactly `n` probes.
    pub fn plan(&self, n: usize) -> Result<Schedule> {
        self.problem.optimal(n)
    }

    /// Optimal costs for every budget 1..=max_n.
    pub fn all_costs(&self, max_n: usize) -> Result<Vec<f64>> {
        self.problem.all_costs(max_n)
    }

    /// Replaces the profile (same grid and constraints). On error the
    /// planner is unchanged.
    pub fn set_profile(&mut self, profile: Profile) -> Result<()> {
        let problem = self.rebuild(&profile, self.delta, self.windows.as_deref())?;
        self.profile = profile;
        self.problem = problem;
        Ok(())
    }

    /// Replaces λ only (e.g. re-estimated from new update times).
    pub fn set_intensity(&mut self, intensity: PiecewiseConstant) -> Result<()> {
        let p = self.profile.with_intensity(intensity)?;
        self.set_profile(p)
    }

    /// Replaces spacing and windows. On error the planner is unchanged.
    pub fn set_constraints(&mut self, delta: f64, windows: Option<Vec<(f64, f64)>>) -> Result<()> {
        let problem = self.rebuild(&self.profile, delta, windows.as_deref())?;
        self.delta = delta;
        self.windows = windows;
        self.problem = problem;
        Ok(())
    }
}
