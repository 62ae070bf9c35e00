//! The `f64`-direction support query: point clouds and convex polytopes return a true `f64`
//! extreme vertex (brute force over the `f64` dot products) for random unrounded directions, from
//! any warm-start hint.

mod common;

use colldet_geom::ConvexPolytope;
use colldet_geom::math::{Point, VectorD};
use colldet_narrow::{PointCloud, SupportMap};
use common::{Family, NarrowDraws, SplitMix64, random_cloud};

fn dot(p: &Point, d: &VectorD) -> f64 {
    f64::from(p.x) * d.x + f64::from(p.y) * d.y + f64::from(p.z) * d.z
}

fn max_dot(points: &[Point], d: &VectorD) -> f64 {
    points
        .iter()
        .map(|p| dot(p, d))
        .fold(f64::NEG_INFINITY, f64::max)
}

#[test]
fn f64_support_is_a_true_f64_extreme_vertex() {
    let mut rng = SplitMix64(0x0005_ab64);
    let mut checks = 0;
    for scale in [1.0, 1e-4, 3e3] {
        for n in [5, 40, 400] {
            let points = random_cloud(&mut rng, Family::Ellipsoid, n, scale);
            let cloud = PointCloud::new(points.clone()).unwrap();
            let polytope = ConvexPolytope::from_points(&points).unwrap();
            let mut hints = [u32::MAX, u32::MAX];
            for _ in 0..2000 {
                let d = rng.unit_vector();
                // The cloud ranks by the same dot products as the reference: exact equality.
                let p = cloud.local_support_hinted_f64(&d, &mut hints[0]);
                assert_eq!(dot(&p, &d), max_dot(&points, &d));
                assert_eq!(cloud.local_point_of_hint(hints[0]), Some(p));
                // Hill climbing: the global maximum up to the rounding of the dot products.
                let slack = 8.0 * f64::EPSILON * f64::from(polytope.radius());
                let best = max_dot(polytope.vertices(), &d);
                let warm = polytope.local_support_hinted_f64(&d, &mut hints[1]);
                assert!(
                    dot(&warm, &d) >= best - slack,
                    "n {n} scale {scale} dir {d:?}"
                );
                let mut cold = u32::MAX;
                let q = polytope.local_support_hinted_f64(&d, &mut cold);
                assert!(dot(&q, &d) >= best - slack);
                checks += 1;
            }
        }
    }
    assert_eq!(checks, 18_000);
}

/// A shape that answers only `f32` queries, so the `f64` query takes the rounding default.
struct RoundedDirection<'a>(&'a PointCloud);

impl SupportMap for RoundedDirection<'_> {
    fn local_support(&self, dir: &colldet_geom::math::Vector) -> Point {
        self.0.local_support(dir)
    }
    fn local_bounding_radius(&self) -> f32 {
        self.0.local_bounding_radius()
    }
}

/// An octahedron whose vertices `a = +x` and `b = 1.25 y` nearly tie in the contact normal `n`
/// (`a` higher by 8 bands), under a wide slab whose face (normal `-n`) lies `gap` above `a`. The
/// normal is chosen so that its `f32` rounding ranks `b` above `a`: a support query with the
/// rounded direction misses `a` and sees the slab `gap + 8 bands` away.
fn near_tie_pair(gap_in_bands: f64) -> (PointCloud, PointCloud, colldet_geom::math::Pose, f64) {
    let octahedron: Vec<Point> = [[1., 0., 0.], [0., 1.25, 0.], [-1., 0., 0.], [0., -1., 0.]]
        .into_iter()
        .chain([[0., 0., 1.], [0., 0., -1.]])
        .map(|[x, y, z]| Point::new(x, y, z))
        .collect();
    let s1 = PointCloud::new(octahedron).unwrap();
    let s2 = common::cuboid([3.0, 3.0, 0.5]);
    let tol = colldet_narrow::touching_tolerance(&s1, &s2);
    let n = (0..100_000)
        .map(|k| {
            let c = 0.5 + 1e-6 * f64::from(k);
            // dot(a, n) - dot(b, n) = n.x - 1.25 n.y = 8 tol.
            let m = VectorD::new(1.25 * c, c, 0.5).normalize();
            VectorD::new(m.x + 8.0 * tol, m.y, m.z).normalize()
        })
        .find(|n| {
            let n32 = [n.x as f32, n.y as f32];
            n.x - 1.25 * n.y > 7.5 * tol && f64::from(n32[0]) < 1.25 * f64::from(n32[1])
        })
        .expect("a normal whose f32 rounding flips the tie");
    let a = VectorD::x();
    let mid = VectorD::new(0.5, 0.625, 0.0);
    let plane = a.dot(&n) + gap_in_bands * tol;
    let centre = mid + n * (plane - mid.dot(&n) + 0.5);
    let rotation = nalgebra::UnitQuaternion::rotation_between(&VectorD::z(), &n).unwrap();
    let pose = colldet_geom::math::Pose::from_parts(nalgebra::Translation3::from(centre), rotation);
    (s1, s2, pose, tol)
}

#[test]
fn gjk_status_is_exact_for_a_near_tie_that_the_f32_direction_flips() {
    use colldet_narrow::{GjkCache, GjkStatus, gjk_intersect};
    for (gap, expected) in [
        (-3.0, GjkStatus::Intersecting),
        (3.0, GjkStatus::Separated),
        (0.0, GjkStatus::Touching),
    ] {
        let (s1, s2, pose, _) = near_tie_pair(gap);
        let status = gjk_intersect(&s1, &s2, &pose, &mut GjkCache::new()).unwrap();
        assert_eq!(status, expected, "gap {gap} bands");
        // The construction is sharp: with the direction rounded to f32 (the old behaviour) GJK
        // misses `a` and misjudges the contact cases.
        let rounded = gjk_intersect(&RoundedDirection(&s1), &s2, &pose, &mut GjkCache::new());
        if gap <= 0.0 {
            assert_ne!(
                rounded.unwrap(),
                expected,
                "gap {gap} bands, rounded direction"
            );
        }
    }
}

/// A UV sphere's quads are not planar once their corners are `f32`: the climb must still reach
/// the extreme corner across the quad's fold. The direction is the one where a climb along the
/// quad loops stopped at vertex 25, `2.5e-8 |d|` short of the opposite corner 38 (issue 22).
#[test]
fn climbs_cross_the_fold_of_non_planar_quads() {
    let mesh = colldet_testkit::shapes::sphere(0.4, 12, 6).unwrap();
    let polytope = ConvexPolytope::from_convex_mesh(&mesh).unwrap();
    let points = polytope.vertices().to_vec();
    let mut rng = SplitMix64(0x0f01_d0ad);
    let base = VectorD::new(0.935113101598698, 0.25056285361008984, -0.250562853610091);
    for case in 0..2000 {
        // The direction of the case found, then directions near the ties of other quads.
        let d = if case == 0 {
            base
        } else {
            let e = VectorD::new(
                rng.range(-1.0, 1.0),
                rng.range(-1.0, 1.0),
                rng.range(-1.0, 1.0),
            );
            let k = rng.usize_in(0, 11) as f64 * std::f64::consts::PI / 6.0;
            let (s, c) = (k.sin(), k.cos());
            VectorD::new(base.x * c - base.y * s, base.x * s + base.y * c, base.z) + e * 1e-9
        };
        for start in 0..points.len() as u32 {
            let mut hint = start;
            let p = polytope.local_support_hinted_f64(&d, &mut hint);
            assert_eq!(
                dot(&p, &d),
                max_dot(&points, &d),
                "case {case} from {start}"
            );
        }
    }
}
