//! C API of [`crate::routing`] (placeholder being written).
