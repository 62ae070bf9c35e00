//! Near-contact answers at CAD scale (issue 20): two meshes thousands of units in size,
//! thousands of units from the origin, at signed gaps of +-1e-2 to +-1e-8 from first contact
//! (`colldet_testkit::near_contact`), checked by a world against the exact oracle
//! (`colldet_testkit::exact_oracle`).
//!
//! The oracle places each mesh by the rotation matrix the world itself keeps for the pose it was
//! given: the world re-normalises the quaternion and makes its matrix
//! (`PoseMatrix::from_pose` of `World::transform`), so the truth is about the configuration the
//! world holds. `f32` input gives the world `MeshData::new` with `f32` vertices (the oracle
//! widens the same values); `f64` input gives it `MeshData::from_f64` (the oracle takes the
//! doubles as given).

use std::collections::BTreeMap;

use colldet_narrow::PoseMatrix;
use colldet_testkit::exact_oracle::OraclePose;
use colldet_testkit::near_contact::{GAPS, NearContactCase, near_contact_cases};
use colldet_world::{Config, Method, World};

/// The suite's seed and size: 30 configurations, 8 gaps, 2 input precisions (480 cases).
const SEED: u64 = 20;
const CONFIGURATIONS: usize = 30;

/// The mesh methods the world offers (the others work on convex hulls, a different question).
const MESH_METHODS: [Method; 3] = [Method::Auto, Method::Arbitrary, Method::BoxTree];

/// One case's answers.
struct Outcome<'a> {
    case: &'a NearContactCase,
    method: Method,
    expected: bool,
    got: bool,
}

/// The world's matrix for an object's pose, as an oracle placement.
fn world_placement(world: &World<()>, id: colldet_world::ObjectId) -> OraclePose {
    let pose = world.transform(id).expect("live object");
    let m = PoseMatrix::from_pose(&pose).expect("finite pose");
    OraclePose::from_matrix(m.rotation(), m.translation())
}

/// Runs `case` in a fresh serial world under `method`: whether the world reports the pair, and
/// the oracle's answer for the matrices the world keeps.
fn run(case: &NearContactCase, method: Method) -> (bool, bool) {
    let mut world = World::new(Config {
        method,
        threads: 1,
        ..Config::default()
    })
    .expect("valid config");
    let a = world
        .make_collidable(case.mesh_data_a(), ())
        .expect("mesh a");
    let b = world
        .make_collidable(case.mesh_data_b(), ())
        .expect("mesh b");
    world.set_transform(a, case.pose_a).expect("pose a");
    world.set_transform(b, case.pose_b).expect("pose b");
    world.start().expect("start");
    let got = world.check().expect("check") > 0;
    let expected = case
        .oracle_with(&world_placement(&world, a), &world_placement(&world, b))
        .collides();
    (expected, got)
}

/// Every case selected by `keep`, under every method of `methods`.
fn outcomes<'a>(
    cases: &'a [NearContactCase],
    methods: &[Method],
    keep: impl Fn(&NearContactCase) -> bool,
) -> Vec<Outcome<'a>> {
    let mut out = Vec::new();
    for case in cases.iter().filter(|c| keep(c)) {
        for &method in methods {
            let (expected, got) = run(case, method);
            out.push(Outcome {
                case,
                method,
                expected,
                got,
            });
        }
    }
    out
}

/// The mismatches of `outcomes`, with a table of wrong/total per input, method and gap printed
/// to standard error, and one line per mismatch.
fn report(title: &str, outcomes: &[Outcome<'_>]) -> usize {
    let mut table: BTreeMap<(bool, String, usize), (usize, usize)> = BTreeMap::new();
    let mut wrong = 0;
    for o in outcomes {
        let gap_rank = GAPS
            .iter()
            .position(|&g| g == o.case.gap_target)
            .unwrap_or(0);
        let entry = table
            .entry((o.case.f32_input, format!("{:?}", o.method), gap_rank))
            .or_default();
        entry.1 += 1;
        if o.expected != o.got {
            entry.0 += 1;
            wrong += 1;
            eprintln!(
                "mismatch: {} {:?}: expected {}, got {}",
                o.case.describe(),
                o.method,
                collision_word(o.expected),
                collision_word(o.got),
            );
        }
    }
    eprintln!("{title}: {wrong} of {} answers wrong", outcomes.len());
    for ((f32_input, method, gap_rank), (bad, total)) in &table {
        eprintln!(
            "  {} input {method:>9} gap {:+e}: {bad}/{total} wrong",
            if *f32_input { "f32" } else { "f64" },
            GAPS[*gap_rank]
        );
    }
    wrong
}

fn collision_word(colliding: bool) -> &'static str {
    if colliding { "colliding" } else { "separated" }
}

/// `f32` input at every relative gap, under every mesh method.
#[test]
fn f32_input_matches_the_oracle_at_every_gap() {
    let cases = near_contact_cases(SEED, CONFIGURATIONS);
    let out = outcomes(&cases, &MESH_METHODS, |c| c.f32_input);
    assert_eq!(report("f32 input, every gap", &out), 0);
}

/// `f64` input at every absolute gap down to 1e-8, under every mesh method: the exact answer for
/// the doubles given (vertices not `f32` numbers, poses in `f64`; a mesh given in `f64` takes the
/// exact mesh tests even when convex, so `Method::Auto` is exact here too). Deciding about the
/// vertices rounded to `f32` or in an `f32`-rounded relative pose answered about half the cases
/// at +-1e-6 and +-1e-8 wrongly.
#[test]
fn f64_input_matches_the_oracle_at_every_gap() {
    let cases = near_contact_cases(SEED, CONFIGURATIONS);
    let out = outcomes(&cases, &MESH_METHODS, |c| !c.f32_input);
    assert_eq!(report("f64 input, every gap", &out), 0);
}
