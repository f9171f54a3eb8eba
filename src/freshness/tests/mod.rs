//! Tests of the freshness module, one file per submodule.

mod cyclic;
mod estimator;
mod frequencies;
mod randomized;
mod scheduler;
mod shard;
mod simulate;
