//! Tests of the freshness module, one file per submodule.
//! (scheduler.rs keeps its inline tests for now.)

mod cyclic;
mod estimator;
mod frequencies;
mod randomized;
mod shard;
mod simulate;
