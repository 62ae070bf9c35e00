//! The thesis's convex tests (modified Cyrus-Beck, separating-planes perceptron) and the pair
//! cache: analytic cases and differential runs against our GJK.

mod common;

use colldet_geom::dcel::FaceId;
use colldet_geom::math::{Isometry, Point, Pose, Vector, VectorD, to_f64};
use colldet_geom::{BuildOptions, GeomError, MeshData, Polyhedron};
use colldet_narrow::thesis::{ClipWitness, PairMember};
use colldet_narrow::{
    CyrusBeckStatus, CyrusBeckWorkspace, GjkCache, GjkStatus, NarrowError, PerceptronOptions,
    PlaneResult, PointCloud, RelativePose, SeparatingPlaneCache, cyrus_beck_intersect,
    gjk_distance, gjk_intersect, separating_plane,
};
use colldet_testkit::shapes::{ChungWangShape, chung_wang_polytope, cube_array, cuboid};
use common::{NarrowDraws, SplitMix64, iso, iso_rot, to_iso, to_pose};
use nalgebra::{Translation3, UnitQuaternion};

fn build(mesh: MeshData) -> Polyhedron {
    Polyhedron::build(mesh, &BuildOptions::default()).unwrap()
}

fn cube(half: f64) -> Polyhedron {
    build(cuboid(VectorD::new(half, half, half)).unwrap())
}

fn cloud(p: &Polyhedron) -> PointCloud {
    PointCloud::new(p.vertices().to_vec()).unwrap()
}

fn cb(p1: &Polyhedron, p2: &Polyhedron, pos12: &Isometry) -> CyrusBeckStatus {
    cyrus_beck_intersect(p1, p2, pos12, &mut CyrusBeckWorkspace::new()).unwrap()
}

fn gjk(p1: &Polyhedron, p2: &Polyhedron, pos12: &Isometry) -> GjkStatus {
    gjk_intersect(&cloud(p1), &cloud(p2), pos12, &mut GjkCache::new()).unwrap()
}

fn plane(p1: &Polyhedron, p2: &Polyhedron, pos12: &impl RelativePose, budget: u32) -> PlaneResult {
    let options = PerceptronOptions {
        max_updates: budget,
        ..PerceptronOptions::default()
    };
    separating_plane(p1, p2, pos12, &options, &mut SeparatingPlaneCache::new()).unwrap()
}

/// Cyrus-Beck in both pair orders (the swap must not change the answer).
fn cb_both(p1: &Polyhedron, p2: &Polyhedron, pos12: &Isometry) -> bool {
    let a = cb(p1, p2, pos12).is_colliding();
    let b = cb(p2, p1, &pos12.inverse()).is_colliding();
    assert_eq!(a, b, "Cyrus-Beck is not swap symmetric");
    a
}

#[test]
fn cubes_apart_touching_overlapping() {
    let c = cube(0.5);
    // Apart along x, and hovering above with parallel faces: the thesis's "ignore parallel
    // faces" would keep the upper cube's horizontal edges and report a collision here.
    for t in [
        [1.5, 0.0, 0.0],
        [0.3, 0.2, 1.5],
        [0.0, 0.0, 1.000_01],
        [1.2, 1.2, 0.0],
    ] {
        let pos = iso(t);
        assert!(!cb_both(&c, &c, &pos), "{t:?}");
        assert_eq!(gjk(&c, &c, &pos), GjkStatus::Separated);
        assert!(plane(&c, &c, &pos, 1000).is_separated(), "{t:?}");
    }
    // Touching exactly: face-face, edge-edge, corner-corner, a face against a smaller face.
    for t in [
        [1.0, 0.0, 0.0],
        [1.0, 1.0, 0.0],
        [1.0, 1.0, 1.0],
        [0.25, -0.5, 1.0],
    ] {
        let pos = iso(t);
        assert!(cb_both(&c, &c, &pos), "{t:?}");
        assert_eq!(gjk(&c, &c, &pos), GjkStatus::Touching);
        // No plane strictly separates touching solids.
        assert!(!plane(&c, &c, &pos, 1000).is_separated(), "{t:?}");
    }
    // Overlapping, also rotated.
    let pos = iso([0.7, 0.2, 0.1]);
    assert!(cb_both(&c, &c, &pos));
    let pos = iso_rot([0.9, 0.3, -0.2], Vector::new(1.0, 2.0, 3.0), 0.7);
    assert!(cb_both(&c, &c, &pos));
    assert_eq!(gjk(&c, &c, &pos), GjkStatus::Intersecting);
    assert_eq!(
        plane(&c, &c, &pos, 50),
        PlaneResult::NoPlaneFound { updates: 50 }
    );
}

#[test]
fn small_cube_inside_big_cube_is_found_by_its_edges() {
    let big = cube(1.0);
    let small = cube(0.1);
    let pos = iso_rot([0.3, -0.2, 0.4], Vector::new(1.0, -1.0, 2.0), 1.1);
    // Big first: none of its edges meets the small cube; the small one's edges survive whole.
    match cb(&big, &small, &pos) {
        CyrusBeckStatus::Intersecting(ClipWitness {
            clipped, interval, ..
        }) => {
            assert_eq!(clipped, PairMember::Shape2);
            assert_eq!(interval, [0.0, 1.0]);
        }
        other => panic!("nested cube missed: {other:?}"),
    }
    match cb(&small, &big, &pos.inverse()) {
        CyrusBeckStatus::Intersecting(w) => {
            assert_eq!(w.clipped, PairMember::Shape1);
            assert_eq!(w.interval, [0.0, 1.0]);
        }
        other => panic!("nested cube missed: {other:?}"),
    }
    assert_eq!(gjk(&big, &small, &pos), GjkStatus::Intersecting);
    assert!(!plane(&big, &small, &pos, 1000).is_separated());
}

#[test]
fn touching_from_inside_and_witness_interval() {
    let big = cube(1.0);
    let small = cube(0.25);
    // The small cube inside, its +x face on the big cube's +x face.
    let pos = iso([0.75, 0.1, -0.3]);
    assert!(cb_both(&big, &small, &pos));
    // A long edge through the box: a rod-like cuboid crossing the cube along x.
    let rod = build(cuboid(VectorD::new(2.0, 0.125, 0.125)).unwrap());
    let pos = iso([0.0, 0.875, 0.875]);
    match cb(&rod, &big, &pos) {
        CyrusBeckStatus::Intersecting(w) => {
            assert_eq!(w.clipped, PairMember::Shape1);
            // The rod's x-edges run from x = -2 to 2; the cube covers [-1, 1]: t in [0.25, 0.75].
            assert_eq!(w.interval, [0.25, 0.75]);
        }
        other => panic!("crossing rod missed: {other:?}"),
    }
}

/// The thesis collects the faces whose polygon box meets shape 1's box. Here no face box of the
/// ellipsoid meets the small cube's box (checked below), so that collection is empty and every
/// edge would "survive": a false collision. Collecting by plane gets it right.
#[test]
fn bounding_box_corner_counterexample_to_the_thesis_collect_phase() {
    let ellipsoid = build(chung_wang_polytope(ChungWangShape::Ellipsoid, 500, 3).unwrap());
    let small = cube(0.03);
    let centre = [0.8_f32, 0.6, 0.4];
    let pos = iso(centre);
    let (lo, hi) = (
        centre.map(|c| f64::from(c) - 0.03),
        centre.map(|c| f64::from(c) + 0.03),
    );
    let dcel = ellipsoid.dcel();
    let meets = (0..dcel.face_count()).any(|f| {
        let face = dcel.face_vertices(FaceId(f as u32));
        (0..3).all(|i| {
            let coord = |v: &u32| f64::from(ellipsoid.vertices()[*v as usize][i]);
            let fmin = face.iter().map(coord).fold(f64::INFINITY, f64::min);
            let fmax = face.iter().map(coord).fold(f64::NEG_INFINITY, f64::max);
            fmin <= hi[i] && lo[i] <= fmax
        })
    });
    assert!(!meets, "the counterexample needs an empty face collection");
    assert!(!cb_both(&ellipsoid, &small, &pos));
    assert_eq!(gjk(&ellipsoid, &small, &pos), GjkStatus::Separated);
}

#[test]
fn tiny_and_huge_scales() {
    for scale in [1e-12, 1e6] {
        let c = cube(0.5 * scale);
        let s = scale as f32;
        let apart = iso([1.001 * s, 0.2 * s, 0.0]);
        assert!(!cb_both(&c, &c, &apart), "{scale}");
        assert!(plane(&c, &c, &apart, 1000).is_separated(), "{scale}");
        let overlap = iso_rot([0.9 * s, 0.3 * s, 0.0], Vector::new(0.0, 1.0, 1.0), 0.3);
        assert!(cb_both(&c, &c, &overlap), "{scale}");
        assert_eq!(gjk(&c, &c, &overlap), GjkStatus::Intersecting);
        assert!(!plane(&c, &c, &overlap, 1000).is_separated(), "{scale}");
        let touch = iso([s, 0.5 * s, 0.0]);
        assert!(cb_both(&c, &c, &touch), "{scale}");
    }
}

#[test]
fn polygon_faces_and_triangle_faces_agree() {
    // The same box as 6 quads (polygon slabs) and as its triangulated hull (exact predicates).
    let quads = cube(0.5);
    let tris = build(colldet_geom::convex_hull(quads.vertices()).unwrap().mesh);
    assert!(tris.classification().convex);
    let mut rng = SplitMix64(77);
    for _ in 0..2000 {
        let rot = rng.rotation();
        let t = rng.unit_vector() * rng.range(0.0, 1.9);
        let pos = to_iso(&rot, &t);
        let truth = gjk(&quads, &quads, &pos);
        let a = cb(&quads, &quads, &pos).is_colliding();
        let b = cb(&tris, &tris, &pos).is_colliding();
        let c = cb(&quads, &tris, &pos).is_colliding();
        if truth != GjkStatus::Touching {
            assert_eq!(a, truth.is_colliding());
            assert_eq!(b, truth.is_colliding());
            assert_eq!(c, truth.is_colliding());
        }
    }
}

#[test]
fn bad_input_gives_typed_errors() {
    let c = cube(0.5);
    let two = build(cube_array(2, 1, 1, 1.0, 0.5).unwrap());
    assert!(!two.classification().convex);
    let mut ws = CyrusBeckWorkspace::new();
    assert!(matches!(
        cyrus_beck_intersect(&c, &two, &iso([3.0, 0.0, 0.0]), &mut ws),
        Err(NarrowError::Geom(GeomError::NotConvex))
    ));
    let nan = iso([f32::NAN, 0.0, 0.0]);
    assert!(matches!(
        cyrus_beck_intersect(&c, &c, &nan, &mut ws),
        Err(NarrowError::NonFinite { .. })
    ));
    let bad_rot = Isometry::from_parts(
        Translation3::new(1.0, 0.0, 0.0),
        UnitQuaternion::new_unchecked(nalgebra::Quaternion::new(f32::INFINITY, 0.0, 0.0, 0.0)),
    );
    assert!(matches!(
        cyrus_beck_intersect(&c, &c, &bad_rot, &mut ws),
        Err(NarrowError::NonFinite { .. })
    ));
    let mut cache = SeparatingPlaneCache::new();
    let opts = PerceptronOptions::default();
    assert!(matches!(
        separating_plane(&c, &c, &nan, &opts, &mut cache),
        Err(NarrowError::NonFinite { .. })
    ));
    for bad in [
        PerceptronOptions {
            initial_step: 0.0,
            ..opts
        },
        PerceptronOptions {
            initial_step: f64::NAN,
            ..opts
        },
        PerceptronOptions {
            step_decay: 1.5,
            ..opts
        },
        PerceptronOptions {
            step_decay: 0.0,
            ..opts
        },
    ] {
        assert!(matches!(
            separating_plane(&c, &c, &iso([2.0, 0.0, 0.0]), &bad, &mut cache),
            Err(NarrowError::InvalidOption { .. })
        ));
    }
    // The perceptron accepts non-convex shapes (it tests their vertex hulls).
    assert!(
        separating_plane(&c, &two, &iso([5.0, 0.0, 0.0]), &opts, &mut cache)
            .unwrap()
            .is_separated()
    );
    assert_eq!(cache.plane().map(|(n, _)| n.x > 0.9), Some(true));
}

#[test]
fn separating_plane_is_certified_and_reused() {
    let c = cube(0.5);
    let pos = iso_rot([1.3, 0.4, -0.2], Vector::new(0.0, 0.0, 1.0), 0.3);
    let mut cache = SeparatingPlaneCache::new();
    let opts = PerceptronOptions {
        max_updates: 1000,
        ..PerceptronOptions::default()
    };
    let first = separating_plane(&c, &c, &pos, &opts, &mut cache).unwrap();
    let PlaneResult::Separated { plane, .. } = first else {
        panic!("no plane for separated cubes: {first:?}");
    };
    cache.validate().unwrap();
    assert_eq!(cache.plane(), Some((plane.normal, plane.offset)));
    // Check the claim independently: every vertex on its side with the stated clearance.
    // (pos12's f32 quaternion renormalised in f64, as the queries do.)
    let q = pos.rotation.quaternion().cast::<f64>();
    let rot = UnitQuaternion::new_normalize(q);
    let t = pos.translation.vector.cast::<f64>();
    for v in c.vertices() {
        let x1 = to_f64(v);
        let x2 = rot * to_f64(v) + t;
        assert!(plane.normal.dot(&x1.coords) <= plane.offset - plane.clearance + 1e-14);
        assert!(plane.normal.dot(&x2.coords) >= plane.offset + plane.clearance - 1e-14);
    }
    // The cubes are 0.3 - (rotation overhang) apart: the clearance is at most half the gap.
    let distance = gjk_distance(&cloud(&c), &cloud(&c), &pos, &mut GjkCache::new())
        .unwrap()
        .distance;
    assert!(plane.clearance > 0.0 && 2.0 * plane.clearance <= distance * (1.0 + 1e-9));
    // Same pose again: the cached plane separates at once.
    let again = separating_plane(&c, &c, &pos, &opts, &mut cache).unwrap();
    assert!(matches!(again, PlaneResult::Separated { updates: 0, .. }));
    // A small move: still separated, with few updates.
    let moved = iso_rot([1.28, 0.41, -0.19], Vector::new(0.0, 0.0, 1.0), 0.31);
    let PlaneResult::Separated { updates, .. } =
        separating_plane(&c, &c, &moved, &opts, &mut cache).unwrap()
    else {
        panic!("lost the plane after a small move");
    };
    assert!(updates <= 5, "{updates}");
    cache.reset();
    assert_eq!(cache.plane(), None);
}

// ---------------------------------------------------------------------------------------------
// Differential runs against GJK.

/// A pool of Chung-Wang polytopes (12 to 500 vertices, scaled 0.5x to 2x) with their clouds and
/// bounding radii.
fn pool() -> Vec<(Polyhedron, PointCloud, f64)> {
    const COUNTS: [usize; 10] = [12, 16, 24, 40, 64, 100, 150, 250, 400, 500];
    let mut rng = SplitMix64(0x7E515);
    let mut shapes = Vec::new();
    for (k, kind) in ChungWangShape::ALL.into_iter().enumerate() {
        for (i, &n) in COUNTS.iter().enumerate() {
            let mut mesh = chung_wang_polytope(kind, n, (k * 100 + i) as u64).unwrap();
            let s = rng.range(0.5, 2.0) as f32;
            for v in &mut mesh.vertices {
                *v = Point::from(v.coords * s);
            }
            let p = build(mesh);
            assert!(p.classification().convex);
            let c = cloud(&p);
            let r = p
                .vertices()
                .iter()
                .map(|v| f64::from(v.coords.norm()))
                .fold(0.0, f64::max);
            shapes.push((p, c, r));
        }
    }
    shapes
}

/// A seeded near-touching `f64` pose for a pair: at a signed distance of about `delta * (r1 + r2)`
/// with `|delta|` between 0 and 1e-2: inside the touching band (`1e-9` of the size; 0 and
/// `1e-10`), ten and a hundred times the band from it (`1e-8`, `1e-7`), and farther.
fn pose_for(
    rng: &mut SplitMix64,
    a: &(Polyhedron, PointCloud, f64),
    b: &(Polyhedron, PointCloud, f64),
) -> Pose {
    const DELTAS: [f64; 15] = [
        -1e-2, -1e-3, -1e-4, -1e-5, -1e-7, -1e-8, -1e-10, 0.0, 1e-10, 1e-8, 1e-7, 1e-5, 1e-4, 1e-3,
        1e-2,
    ];
    let rot = rng.rotation();
    let u = rng.unit_vector();
    let size = a.2 + b.2;
    let far = to_pose(&rot, &(u * 1.5 * size));
    let d = gjk_distance(&a.1, &b.1, &far, &mut GjkCache::new()).unwrap();
    let n = (d.point2 - d.point1) / d.distance;
    let delta = DELTAS[rng.usize_in(0, DELTAS.len() - 1)];
    let t = u * 1.5 * size - n * d.distance + n * delta * size;
    to_pose(&rot, &t)
}

#[derive(Default)]
struct Tally {
    pairs: usize,
    separated: usize,
    touching: usize,
    intersecting: usize,
    touching_cb_colliding: usize,
    /// Per budget: (separated pairs where no plane was found, same among random poses,
    /// separated random-pose pairs).
    plane_misses: [(usize, usize, usize); 3],
}

#[test]
fn differential_against_gjk_on_random_convex_pairs() {
    const PAIRS: usize = 20_000;
    const BUDGETS: [u32; 3] = [10, 100, 1000];
    let shapes = pool();
    let mut rng = SplitMix64(0xC0FFEE);
    let mut ws = CyrusBeckWorkspace::new();
    let mut tally = Tally::default();
    for case in 0..PAIRS {
        let a = &shapes[rng.usize_in(0, shapes.len() - 1)];
        let b = &shapes[rng.usize_in(0, shapes.len() - 1)];
        let random_pose = rng.next_f64() < 0.4;
        let pos = if random_pose {
            to_pose(
                &rng.rotation(),
                &(rng.unit_vector() * rng.range(0.0, 1.3) * (a.2 + b.2)),
            )
        } else {
            pose_for(&mut rng, a, b)
        };
        let truth = gjk_intersect(&a.1, &b.1, &pos, &mut GjkCache::new()).unwrap();
        let status = cyrus_beck_intersect(&a.0, &b.0, &pos, &mut ws).unwrap();
        tally.pairs += 1;
        match truth {
            GjkStatus::Separated => tally.separated += 1,
            GjkStatus::Intersecting => tally.intersecting += 1,
            GjkStatus::Touching => {
                tally.touching += 1;
                tally.touching_cb_colliding += usize::from(status.is_colliding());
            }
        }
        if truth != GjkStatus::Touching {
            assert_eq!(
                status.is_colliding(),
                truth.is_colliding(),
                "case {case}: Cyrus-Beck {status:?} vs GJK {truth:?}, pos12 {pos:?}"
            );
        }
        for (k, &budget) in BUDGETS.iter().enumerate() {
            let result = plane(&a.0, &b.0, &pos, budget);
            if let PlaneResult::Separated { plane, .. } = result {
                // Never a plane through colliding shapes; a touching verdict only when the
                // certified gap is inside the touching band.
                let tol = colldet_narrow::touching_tolerance(&a.1, &b.1);
                assert!(
                    truth == GjkStatus::Separated
                        || (truth == GjkStatus::Touching && 2.0 * plane.clearance <= tol),
                    "case {case}: plane {plane:?} but GJK {truth:?}"
                );
            } else if truth == GjkStatus::Separated {
                tally.plane_misses[k].0 += 1;
                if random_pose {
                    tally.plane_misses[k].1 += 1;
                }
            }
            if truth == GjkStatus::Separated && random_pose {
                tally.plane_misses[k].2 += 1;
            }
        }
    }
    println!(
        "{} pairs: {} separated, {} touching ({} called colliding by Cyrus-Beck), {} intersecting",
        tally.pairs,
        tally.separated,
        tally.touching,
        tally.touching_cb_colliding,
        tally.intersecting
    );
    for (k, budget) in BUDGETS.iter().enumerate() {
        let (misses, random_misses, random_separated) = tally.plane_misses[k];
        println!(
            "perceptron budget {budget:>4}: false 'collision' on {:.2}% of separated pairs \
             ({:.2}% of separated random-pose pairs, {:.2}% of all pairs)",
            100.0 * misses as f64 / tally.separated as f64,
            100.0 * random_misses as f64 / random_separated as f64,
            100.0 * misses as f64 / tally.pairs as f64,
        );
    }
    // Every class is well represented, and a larger budget never finds fewer planes overall.
    assert!(tally.separated > 4000 && tally.intersecting > 4000 && tally.touching > 500);
    assert!(tally.plane_misses[0].0 >= tally.plane_misses[1].0);
    assert!(tally.plane_misses[1].0 >= tally.plane_misses[2].0);
}
