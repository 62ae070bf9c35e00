//! colldet-testkit: the helpers of colldet's tests, benchmarks and demo, one copy of each.
//!
//! - [`SeededRng`] and [`SplitMix64`]: seeded generators whose streams are fixed forever, so
//!   stored seeds keep reproducing the same test cases ([`rng`]).
//! - [`shapes`]: deterministic shape generators (Chung-Wang point sets and polytopes, Zachmann's
//!   test objects, cuboids and cube arrays) returning [`colldet_geom::MeshData`].
//! - [`CountingAllocator`]: the global allocator of the no-allocation tests
//!   ([`counting_allocator`]).
//! - [`brute_force_pairs`]: every pair `i < j` passing a test, in order: the answer pair
//!   searches are checked against ([`pairs`]).
//! - [`fuzz_corpus::replay`]: a checked-in fuzz corpus through its target's body, on stable.
//! - [`parry::parry_pose`]: a pose as parry3d-f64's, for the differential tests against it.
//! - [`zoo_poses`]: the zoo meshes and the mesh-distance poses file the benches share.
//!
//! No production crate depends on this one except as a dev-dependency; the command-line crate
//! (its demo generates shapes) and the benchmarks may depend on it normally.
//!
//! One caveat comes from the dependency on colldet-geom: colldet-geom's own unit tests
//! (`#[cfg(test)]` code inside its `src`) see this crate's colldet-geom as a different crate, so
//! they can use only the helpers whose types involve no colldet-geom type (the seeded
//! generators, the counting allocator), not the shape generators. colldet-geom's integration
//! tests, examples and benchmarks, and every other crate's tests, use everything freely.

pub mod counting_allocator;
pub mod exact_oracle;
pub mod fuzz_corpus;
pub mod near_contact;
pub mod pairs;
pub mod parry;
pub mod rng;
pub mod shapes;
pub mod zoo_poses;

pub use counting_allocator::CountingAllocator;
pub use pairs::brute_force_pairs;
pub use rng::{SeededRng, SplitMix64};
