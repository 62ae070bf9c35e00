//! Fuzz body for colldet-narrow: two small convex hulls and a pose from the fuzzer's bytes,
//! Chung-Wang against GJK, and both against a brute-force separating-axis test.
//!
//! Shared by the cargo-fuzz crate (`fuzz/`) and the stable replay test
//! `crates/colldet-narrow/tests/fuzz_corpus_replay.rs` (included there with `#[path]`).

use colldet_geom::math::{Point, Pose};
use colldet_geom::{ConvexPolytope, MeshData, convex_hull};
use colldet_narrow::{
    ChungWangCache, ChungWangWorkspace, GjkCache, GjkStatus, NarrowError, chung_wang_intersect,
    gjk_distance, gjk_intersect, touching_tolerance,
};
use nalgebra::{Point3, Quaternion, Translation3, UnitQuaternion, Vector3};

/// A cursor over the fuzzer's bytes; reads past the end give zeros.
struct Bytes<'a> {
    data: &'a [u8],
}

impl Bytes<'_> {
    fn byte(&mut self) -> u8 {
        match self.data.split_first() {
            Some((&first, rest)) => {
                self.data = rest;
                first
            }
            None => 0,
        }
    }

    fn signed(&mut self) -> f64 {
        f64::from(self.byte() as i8)
    }
}

/// A point set of 4 to 12 points: a scale byte (a power of two from 2^-6 to 2^9) and three grid
/// bytes `i8 / 8` per point, so that coplanar faces, parallel edges and exact contacts are common.
fn decode_points(bytes: &mut Bytes<'_>) -> Vec<Point> {
    let n = 4 + usize::from(bytes.byte() % 9);
    let scale = 2f64.powi(i32::from(bytes.byte() % 16) - 6);
    (0..n)
        .map(|_| {
            let [x, y, z] = [(); 3].map(|()| (bytes.signed() / 8.0 * scale) as f32);
            Point::new(x, y, z)
        })
        .collect()
}

/// Shape 2's pose in shape 1's frame: a rotation from a quaternion of four signed bytes
/// (identity when all are zero) and a translation of three signed bytes times a power of two.
fn decode_pose(bytes: &mut Bytes<'_>) -> Pose {
    let q = [(); 4].map(|()| bytes.signed());
    let rotation = if q.iter().all(|&c| c == 0.0) {
        UnitQuaternion::identity()
    } else {
        UnitQuaternion::from_quaternion(Quaternion::new(q[0], q[1], q[2], q[3]))
    };
    let scale = 2f64.powi(i32::from(bytes.byte() % 16) - 8);
    let [x, y, z] = [(); 3].map(|()| bytes.signed() * scale);
    Pose::from_parts(Translation3::new(x, y, z), rotation)
}

/// A hull's vertices (in `f64`, moved by `pose`), its face normals (`f64`, not normalised) and
/// its edges as vertex pairs.
struct Brute {
    points: Vec<Point3<f64>>,
    normals: Vec<Vector3<f64>>,
    edges: Vec<(usize, usize)>,
}

impl Brute {
    fn new(mesh: &MeshData, pose: &Pose) -> Self {
        let points: Vec<Point3<f64>> = mesh
            .vertices
            .iter()
            .map(|p| pose * p.map(f64::from))
            .collect();
        let mut normals = Vec::new();
        let mut edges = Vec::new();
        for face in mesh.faces.iter() {
            let [a, b, c] = [face[0], face[1], face[2]].map(|i| points[i as usize]);
            normals.push((b - a).cross(&(c - a)));
            for (k, &i) in face.iter().enumerate() {
                let j = face[(k + 1) % face.len()];
                if i < j {
                    edges.push((i as usize, j as usize));
                }
            }
        }
        Self {
            points,
            normals,
            edges,
        }
    }

    fn extent(&self, axis: &Vector3<f64>) -> (f64, f64) {
        self.points
            .iter()
            .map(|p| axis.dot(&p.coords))
            .fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), x| {
                (lo.min(x), hi.max(x))
            })
    }
}

/// The largest gap between `a` and `b` over the separating-axis candidates of two convex
/// polyhedra (face normals of both, cross products of an edge of each; only exactly parallel pairs,
/// whose cross product is zero, are skipped): positive when they are
/// separated (a lower bound on their distance), otherwise minus the penetration depth.
fn sat_gap(a: &Brute, b: &Brute) -> f64 {
    let mut best = f64::NEG_INFINITY;
    let mut test = |axis: Vector3<f64>| {
        let len = axis.norm();
        if len.is_nan() || len <= 0.0 {
            return;
        }
        let axis = axis / len;
        let (a_lo, a_hi) = a.extent(&axis);
        let (b_lo, b_hi) = b.extent(&axis);
        best = best.max((b_lo - a_hi).max(a_lo - b_hi));
    };
    for n in a.normals.iter().chain(&b.normals) {
        test(*n);
    }
    for &(i, j) in &a.edges {
        let e = a.points[j] - a.points[i];
        for &(k, l) in &b.edges {
            test(e.cross(&(b.points[l] - b.points[k])));
        }
    }
    best
}

/// Unwraps a query result: a documented iteration cap (`DidNotConverge`) ends the case,
/// anything else on finite input is a finding.
fn answer<T>(what: &str, result: Result<T, NarrowError>) -> Option<T> {
    match result {
        Ok(x) => Some(x),
        Err(NarrowError::DidNotConverge { .. }) => None,
        Err(e) => panic!("{what}: {e}"),
    }
}

/// Convex pair: two hulls of 4 to 12 grid points and a pose decoded from the bytes (point sets
/// without volume end the case). Invariants, with `tol` the pair's touching band: no panic and no
/// error other than an iteration cap; outside the band (GJK says intersecting, or separated by
/// more than `1.01 tol`) Chung-Wang's boolean equals GJK's; and against the brute-force
/// separating-axis gap `g`: for `g > 2 tol` both say separated, for `-g > 2 tol` (penetration
/// deeper than the band) both say colliding.
pub fn convex_pair(data: &[u8]) {
    let mut bytes = Bytes { data };
    let points1 = decode_points(&mut bytes);
    let points2 = decode_points(&mut bytes);
    let pos12 = decode_pose(&mut bytes);
    let (Ok(hull1), Ok(hull2)) = (convex_hull(&points1), convex_hull(&points2)) else {
        return;
    };
    let p1 = ConvexPolytope::from_convex_mesh(&hull1.mesh).expect("polytope of a hull");
    let p2 = ConvexPolytope::from_convex_mesh(&hull2.mesh).expect("polytope of a hull");
    let tol = touching_tolerance(&p1, &p2);
    let Some(gjk) = answer(
        "gjk_intersect",
        gjk_intersect(&p1, &p2, &pos12, &mut GjkCache::new()),
    ) else {
        return;
    };
    let mut cache = ChungWangCache::new();
    let mut workspace = ChungWangWorkspace::new();
    let Some(cw) = answer(
        "chung_wang_intersect",
        chung_wang_intersect(&p1, &p2, &pos12, &mut cache, &mut workspace),
    ) else {
        return;
    };
    if let Err(e) = cache.validate() {
        panic!("Chung-Wang cache invalid: {e}");
    }
    let gjk_separation = if gjk == GjkStatus::Separated {
        answer(
            "gjk_distance",
            gjk_distance(&p1, &p2, &pos12, &mut GjkCache::new()),
        )
        .map(|d| d.distance)
    } else {
        None
    };
    let label = format!(
        "gjk {gjk:?} (distance {gjk_separation:?}) chung-wang {:?} ({:?}) tol {tol:e}\n\
         points1 {points1:?}\npoints2 {points2:?}\npos12 {pos12:?}",
        cw.status, cw.decided_by
    );
    let out_of_band = match gjk {
        GjkStatus::Intersecting => true,
        GjkStatus::Touching => false,
        GjkStatus::Separated => gjk_separation.is_some_and(|d| d > 1.01 * tol),
    };
    if out_of_band {
        assert_eq!(
            cw.status.is_colliding(),
            gjk.is_colliding(),
            "Chung-Wang and GJK disagree outside the band: {label}"
        );
    }
    let gap = sat_gap(
        &Brute::new(&hull1.mesh, &Pose::identity()),
        &Brute::new(&hull2.mesh, &pos12),
    );
    if gap > 2.0 * tol {
        assert!(
            !gjk.is_colliding() && !cw.status.is_colliding(),
            "separating-axis gap {gap:e} but a collision reported: {label}"
        );
    } else if -gap > 2.0 * tol {
        assert!(
            gjk.is_colliding() && cw.status.is_colliding(),
            "penetration {:e} but separation reported: {label}",
            -gap
        );
    }
}
