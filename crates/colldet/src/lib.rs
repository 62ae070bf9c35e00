//! colldet: the collision world that ties geometry, broad phase and narrow phase together, and
//! the benchmark scene format its runner plays.

pub mod scene;
