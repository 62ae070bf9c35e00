//! colldet-cli: the `colldet` command-line runner and the tools around it: the benchmark scene
//! reader, the scene runner, the Chung-Wang demo with the thesis presets, its report, the
//! progress bar and the demo's setup progress. Built on the `colldet-world` library; nothing here is linked into the C library.

pub mod cli;
pub mod demo;
pub mod names;
pub mod progress;
pub mod report;
pub mod runner;
pub mod scene;
pub mod setup_progress;
