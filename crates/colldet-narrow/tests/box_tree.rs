//! Box trees on the thesis's test objects: tree invariants, and the box-tree collision answer
//! against the all-pairs exact test (`thesis_arbitrary`) on seeded random and near-touching poses.

use colldet_geom::math::{Isometry, Real};
use colldet_geom::{BuildOptions, MeshData, Polyhedron};
use colldet_narrow::NarrowError;
use colldet_narrow::mesh::box_tree::{
    BoxTreeMesh, BoxTreeOptions, BoxTreeWorkspace, box_tree_intersect,
};
use colldet_narrow::mesh::{
    ArbitraryOptions, ArbitraryWorkspace, MeshFeature, WitnessKind, edge_polygon_intersect,
    thesis_arbitrary,
};
use colldet_testkit::SplitMix64;
use colldet_testkit::shapes::{cube_array, sphere, tetra_flake, torus};
use nalgebra::{Quaternion, Translation3, UnitQuaternion, Vector3};

/// The random rotations and directions of these tests, drawn from the shared [`SplitMix64`].
trait BoxTreeDraws {
    /// A rotation: a quaternion with components uniform in `[-1, 1)` and norm in `(0.1, 1)`
    /// (rejection), rounded to `f32` and normalised.
    fn rotation(&mut self) -> UnitQuaternion<f32>;

    /// A unit vector: rejection sampling in the cube (norms in `(0.1, 1)`, divided by the norm).
    fn direction(&mut self) -> Vector3<f64>;
}

impl BoxTreeDraws for SplitMix64 {
    fn rotation(&mut self) -> UnitQuaternion<f32> {
        loop {
            let q = Quaternion::new(
                self.range(-1.0, 1.0),
                self.range(-1.0, 1.0),
                self.range(-1.0, 1.0),
                self.range(-1.0, 1.0),
            );
            let n = q.norm();
            if n > 0.1 && n < 1.0 {
                return UnitQuaternion::new_normalize(q.cast::<f32>());
            }
        }
    }

    fn direction(&mut self) -> Vector3<f64> {
        loop {
            let v = Vector3::new(
                self.range(-1.0, 1.0),
                self.range(-1.0, 1.0),
                self.range(-1.0, 1.0),
            );
            let n = v.norm();
            if n > 0.1 && n < 1.0 {
                return v / n;
            }
        }
    }
}

fn mesh(data: MeshData) -> BoxTreeMesh {
    let poly = Polyhedron::build(data, &BuildOptions::default()).unwrap();
    BoxTreeMesh::new(poly, &BoxTreeOptions::default()).unwrap()
}

/// The test objects (sphere, torus, tetra-flake, cube array) from 48 to 2048 faces, scaled by
/// `scale`.
fn objects(scale: f64) -> Vec<(&'static str, BoxTreeMesh)> {
    vec![
        ("sphere 8x6", mesh(sphere(scale, 8, 6).unwrap())),
        ("tetra-flake 2", mesh(tetra_flake(2, scale).unwrap())),
        (
            "cube array 2x2x2",
            mesh(cube_array(2, 2, 2, 0.6 * scale, 0.2 * scale).unwrap()),
        ),
        (
            "torus 12x8",
            mesh(torus(scale, 0.35 * scale, 12, 8).unwrap()),
        ),
        ("sphere 20x10", mesh(sphere(scale, 20, 10).unwrap())),
        ("tetra-flake 3", mesh(tetra_flake(3, scale).unwrap())),
        (
            "cube array 5x5x4",
            mesh(cube_array(5, 5, 4, 0.3 * scale, 0.1 * scale).unwrap()),
        ),
        (
            "torus 40x25",
            mesh(torus(scale, 0.3 * scale, 40, 25).unwrap()),
        ),
        ("sphere 40x25", mesh(sphere(scale, 40, 25).unwrap())),
        ("tetra-flake 4", mesh(tetra_flake(4, scale).unwrap())),
        (
            "torus 64x32",
            mesh(torus(scale, 0.4 * scale, 64, 32).unwrap()),
        ),
    ]
}

/// Half the diagonal of the local box: every shape is centred at its box centre (the origin).
fn radius(m: &BoxTreeMesh) -> f64 {
    let b = m.face_tree().root_box();
    f64::from((b.maxs - b.mins).norm()) * 0.5
}

fn pose(rotation: UnitQuaternion<f32>, t: Vector3<f64>) -> Isometry {
    Isometry::from_parts(Translation3::from(t.cast::<Real>()), rotation)
}

struct Checker {
    tree_ws: BoxTreeWorkspace,
    brute_ws: ArbitraryWorkspace,
    colliding: usize,
    separate: usize,
}

impl Checker {
    fn new() -> Self {
        Self {
            tree_ws: BoxTreeWorkspace::new(),
            brute_ws: ArbitraryWorkspace::new(),
            colliding: 0,
            separate: 0,
        }
    }

    /// Box-tree answer, checked against the all-pairs test; the witness is checked with the
    /// exact edge-polygon test on the mapped vertices.
    fn check(&mut self, m1: &BoxTreeMesh, m2: &BoxTreeMesh, pos12: &Isometry, what: &str) -> bool {
        let tree = box_tree_intersect(m1, m2, pos12, &mut self.tree_ws).unwrap();
        let brute = thesis_arbitrary(
            m1.polyhedron(),
            m2.polyhedron(),
            pos12,
            &ArbitraryOptions::default(),
            &mut self.brute_ws,
        )
        .unwrap();
        assert_eq!(
            tree.is_some(),
            brute.is_some(),
            "{what}: box tree {tree:?} vs all pairs {brute:?} at {pos12:?}"
        );
        if let Some(w) = tree {
            let mapped = self.brute_ws.mapped_vertices();
            let (p1, p2) = (m1.polyhedron(), m2.polyhedron());
            let p1v = |v: u32| colldet_geom::math::to_f64(&p1.vertices()[v as usize]);
            let (u, v, polygon) = match (w.kind, w.feature1, w.feature2) {
                (WitnessKind::EdgeFace, MeshFeature::Edge(e), MeshFeature::Face(f)) => {
                    let [a, b] = p1.dcel().edge_vertices(e);
                    let face = p2.dcel().face_vertices(f);
                    (
                        p1v(a.0),
                        p1v(b.0),
                        face.iter().map(|&c| mapped[c as usize]).collect::<Vec<_>>(),
                    )
                }
                (WitnessKind::FaceEdge, MeshFeature::Face(f), MeshFeature::Edge(e)) => {
                    let [a, b] = p2.dcel().edge_vertices(e);
                    let face = p1.dcel().face_vertices(f);
                    (
                        mapped[a.index()],
                        mapped[b.index()],
                        face.iter().map(|&c| p1v(c)).collect::<Vec<_>>(),
                    )
                }
                other => panic!("{what}: unexpected witness {other:?}"),
            };
            assert!(
                edge_polygon_intersect(&u, &v, &polygon).is_some(),
                "{what}: witness features do not meet"
            );
            self.colliding += 1;
        } else {
            self.separate += 1;
        }
        tree.is_some()
    }
}

#[test]
fn trees_of_test_objects_are_valid() {
    for (name, m) in objects(1.0) {
        m.validate().unwrap_or_else(|e| panic!("{name}: {e}"));
        let faces = m.face_tree();
        assert_eq!(faces.element_count(), m.polyhedron().dcel().face_count());
        assert_eq!(
            m.edge_tree().element_count(),
            m.polyhedron().dcel().edge_count()
        );
        assert!(faces.leaf_count() > 1, "{name}: face tree not split");
        // Duplication stays moderate (the thesis saw 1.2 to 1.6 references per element).
        let ratio = faces.element_references() as f64 / faces.element_count() as f64;
        assert!(ratio < 2.5, "{name}: {ratio} references per face");
    }
}

/// The thick cut plane is what keeps symmetric meshes from duplicating: on a UV sphere and a
/// cube array (vertices exactly or nearly on the cut planes), a zero-thickness plane stores at
/// least as many references as the default one, and the default stays below 2 per element.
#[test]
fn thick_cut_plane_limits_duplicates_on_symmetric_meshes() {
    let thin = BoxTreeOptions {
        cut_thickness: 0.0,
        ..BoxTreeOptions::default()
    };
    for data in [
        sphere(1.0, 40, 25).unwrap(),
        torus(1.0, 0.3, 40, 25).unwrap(),
    ] {
        let poly = Polyhedron::build(data, &BuildOptions::default()).unwrap();
        let thick = BoxTreeMesh::new(poly.clone(), &BoxTreeOptions::default()).unwrap();
        let zero = BoxTreeMesh::new(poly, &thin).unwrap();
        thick.validate().unwrap();
        zero.validate().unwrap();
        let refs = |m: &BoxTreeMesh| m.face_tree().element_references();
        assert!(
            refs(&thick) <= refs(&zero),
            "{} > {}",
            refs(&thick),
            refs(&zero)
        );
        assert!(refs(&thick) < 2 * thick.face_tree().element_count());
    }
}

/// At least 20,000 seeded poses over all pairs of test objects (48 to 2048 faces): random overlaps,
/// and near-touching poses found by bisecting the distance along a random direction (the last
/// colliding and the first separated pose, about 1e-6 of the size apart).
#[test]
fn box_tree_answer_matches_all_pairs_test() {
    let objects = objects(1.0);
    let mut rng = SplitMix64(0xb0c5_7ee5);
    let mut checker = Checker::new();
    let mut poses = 0;
    let mut near = 0;
    let small = 8; // the objects below 1000 faces
    while poses < 20_000 {
        // Mostly small objects; large ones one time in eight.
        let pick = |rng: &mut SplitMix64| {
            if rng.below(8) == 0 {
                rng.below(objects.len())
            } else {
                rng.below(small)
            }
        };
        let (i, j) = (pick(&mut rng), pick(&mut rng));
        let ((n1, m1), (n2, m2)) = (&objects[i], &objects[j]);
        let what = format!("{n1} vs {n2} (pose {poses})");
        let rotation = rng.rotation();
        let dir = rng.direction();
        let reach = radius(m1) + radius(m2);
        if rng.below(2) == 0 {
            let t = dir * reach * rng.range(0.0, 1.05);
            checker.check(m1, m2, &pose(rotation, t), &what);
            poses += 1;
            continue;
        }
        // Bisection on the box-tree answer between a colliding and a separated distance.
        let mut ws = BoxTreeWorkspace::new();
        let hits = |d: f64, ws: &mut BoxTreeWorkspace| {
            box_tree_intersect(m1, m2, &pose(rotation, dir * d), ws)
                .unwrap()
                .is_some()
        };
        let (mut lo, mut hi) = (0.0, reach * 1.01);
        if !hits(lo, &mut ws) || hits(hi, &mut ws) {
            continue;
        }
        for _ in 0..20 {
            let mid = 0.5 * (lo + hi);
            if hits(mid, &mut ws) {
                lo = mid;
            } else {
                hi = mid;
            }
        }
        assert!(checker.check(m1, m2, &pose(rotation, dir * lo), &what));
        assert!(!checker.check(m1, m2, &pose(rotation, dir * hi), &what));
        poses += 2;
        near += 2;
    }
    assert!(near > 8_000, "{near} near-touching poses");
    assert!(checker.colliding > 6_000 && checker.separate > 6_000);
}

/// Exactly touching poses: cube arrays and tetra-flakes (dyadic coordinates) placed face to face
/// under exact rotations (identity, half turns, the 120-degree axis permutations), so contacts
/// are exact touches, and the same moved apart by a small gap.
#[test]
fn box_tree_reports_exact_touching() {
    let cubes = mesh(cube_array(2, 2, 2, 1.0, 0.5).unwrap());
    let flake = mesh(tetra_flake(2, 1.0).unwrap());
    let rotations: Vec<UnitQuaternion<f32>> = [
        (1.0, 0.0, 0.0, 0.0),
        (0.0, 1.0, 0.0, 0.0),
        (0.0, 0.0, 1.0, 0.0),
        (0.0, 0.0, 0.0, 1.0),
        (0.5, 0.5, 0.5, 0.5),
        (0.5, -0.5, 0.5, -0.5),
    ]
    .iter()
    .map(|&(w, i, j, k)| UnitQuaternion::new_unchecked(Quaternion::new(w, i, j, k)))
    .collect();
    let mut checker = Checker::new();
    let mut rng = SplitMix64(0x70c4);
    for (m1, m2) in [(&cubes, &cubes), (&flake, &flake), (&cubes, &flake)] {
        let (b1, b2) = (m1.face_tree().root_box(), m2.face_tree().root_box());
        for &rotation in &rotations {
            for axis in 0..3 {
                for gap in [0.0, 1.0 / 1024.0] {
                    // Rotations here permute axes, so box 2's extent along `axis` after the
                    // rotation is one of its extents; compute it from its rotated corners.
                    let corners = [b2.mins, b2.maxs];
                    let lowest = (0..8)
                        .map(|c| {
                            let p = nalgebra::Point3::new(
                                corners[c & 1].x,
                                corners[(c >> 1) & 1].y,
                                corners[(c >> 2) & 1].z,
                            );
                            (rotation * p)[axis]
                        })
                        .fold(f32::INFINITY, f32::min);
                    let mut t = Vector3::zeros();
                    t[axis] = f64::from(b1.maxs[axis] - lowest) + gap;
                    // Slide sideways by a dyadic amount so faces overlap partially.
                    let side = (axis + 1) % 3;
                    t[side] = (rng.below(5) as f64 - 2.0) * 0.25;
                    let touching = checker.check(m1, m2, &pose(rotation, t), "exact touch");
                    if std::ptr::eq(m1, &cubes) && std::ptr::eq(m2, &cubes) {
                        // Cube arrays face to face (shifted sideways by at most half a cube)
                        // touch exactly when there is no gap.
                        assert_eq!(touching, gap == 0.0);
                    }
                }
            }
        }
    }
    assert!(checker.colliding > 20 && checker.separate > 20);
}

/// Tiny and huge objects: the answer still equals the all-pairs test's at sizes 1e-12 and 1e6
/// (no absolute tolerance anywhere).
#[test]
fn box_tree_matches_all_pairs_at_extreme_scales() {
    for scale in [1e-12, 1e6] {
        let objects = objects(scale);
        let mut rng = SplitMix64(0x5ca1e);
        let mut checker = Checker::new();
        for _ in 0..400 {
            let (i, j) = (rng.below(6), rng.below(6));
            let rotation = rng.rotation();
            let reach = radius(&objects[i].1) + radius(&objects[j].1);
            let t = rng.direction() * reach * rng.range(0.0, 1.05);
            checker.check(&objects[i].1, &objects[j].1, &pose(rotation, t), "scaled");
        }
        assert!(
            checker.colliding > 50 && checker.separate > 50,
            "scale {scale}"
        );
    }
}

#[test]
fn box_tree_rejects_non_finite_poses() {
    let m = mesh(sphere(1.0, 8, 6).unwrap());
    let mut ws = BoxTreeWorkspace::new();
    let mut bad = Isometry::identity();
    bad.translation.vector.y = f32::INFINITY;
    assert!(matches!(
        box_tree_intersect(&m, &m, &bad, &mut ws),
        Err(NarrowError::NonFinite { .. })
    ));
    let mut bad = Isometry::identity();
    bad.rotation = UnitQuaternion::new_unchecked(Quaternion::new(f32::NAN, 0.0, 0.0, 0.0));
    assert!(matches!(
        box_tree_intersect(&m, &m, &bad, &mut ws),
        Err(NarrowError::NonFinite { .. })
    ));
}

/// Phase 2 (edges of mesh 2 against faces of mesh 1) once skipped an edge-face pair because
/// phase 1 had tested a pair with the same two numbers (mesh-1 edge, mesh-2 face): the set of
/// tested duplicated pairs was shared by both phases. Two perturbed plates, found by a random
/// probe against `thesis_arbitrary`, which finds face 5 of the first meeting edge 11 of the
/// second.
#[test]
fn the_second_phase_does_not_skip_pairs_the_first_phase_tested() {
    let plate = |vertices: &[[f32; 3]], faces: &[[u32; 3]]| {
        let mut list = colldet_geom::mesh_data::FaceList::new();
        for face in faces {
            list.push(face);
        }
        let points = vertices
            .iter()
            .map(|v| colldet_geom::math::Point::new(v[0], v[1], v[2]));
        Polyhedron::build(
            MeshData::new(points.collect(), list),
            &BuildOptions::default(),
        )
        .unwrap()
    };
    let p = plate(
        &[
            [0.2667274, -0.24034606, 0.031281468],
            [0.76037663, -0.061584696, -0.041729134],
            [1.8962228, -0.08497696, 0.044126082],
            [3.1584094, -0.1450791, 0.041449733],
            [4.1444097, 0.011365848, -0.03827152],
            [5.1048203, 0.039479945, 0.02206943],
            [0.26886037, 1.038438, 0.03245649],
            [1.0662965, 0.73760116, -0.004240591],
            [1.720305, 1.2970693, 0.008265432],
            [3.0800261, 0.83210975, -0.017793836],
            [3.9443622, 1.2064682, -0.03473738],
            [4.778014, 0.7255168, -0.004541019],
            [0.17685935, 1.7694867, 0.021853028],
            [0.7543311, 1.9366456, 0.04719434],
            [1.8392228, 2.1770663, -0.0026042287],
            [3.1911552, 1.8442886, 0.007575812],
            [4.136699, 2.000636, -0.04629728],
            [4.7730656, 1.7900851, -0.047163088],
            [-0.14580119, 2.9882464, -0.01616973],
            [0.8568356, 2.8870504, 0.045476537],
            [2.1744323, 2.733572, 0.039912503],
            [3.1872222, 2.7134256, -0.026552087],
            [4.1687574, 2.9879856, -0.03247441],
            [4.8625355, 3.1224036, 0.002876619],
            [-0.12542325, 4.19671, -0.019883923],
            [1.0135326, 3.821001, -0.04600355],
            [2.0698683, 4.2362065, 0.04551712],
            [3.1625972, 4.0337524, 0.011268342],
            [4.0606422, 4.1559706, 0.002521309],
            [4.7654214, 4.0590057, 0.021141702],
            [0.009120262, 5.1567593, 0.0047871135],
            [0.9143497, 5.026862, -0.007663572],
            [2.2938886, 4.989591, -0.027450472],
            [2.7450786, 4.9474497, -0.04570989],
            [4.1758933, 5.0226207, 0.032195825],
            [4.824695, 5.13814, 0.035096683],
        ],
        &[
            [0, 1, 7],
            [0, 7, 6],
            [1, 2, 8],
            [1, 8, 7],
            [2, 3, 9],
            [2, 9, 8],
            [3, 4, 10],
            [3, 10, 9],
            [4, 5, 11],
            [4, 11, 10],
            [6, 7, 13],
            [6, 13, 12],
            [7, 8, 14],
            [7, 14, 13],
            [8, 9, 15],
            [8, 15, 14],
            [9, 10, 16],
            [9, 16, 15],
            [10, 11, 17],
            [10, 17, 16],
            [12, 13, 19],
            [12, 19, 18],
            [13, 14, 20],
            [13, 20, 19],
            [14, 15, 21],
            [14, 21, 20],
            [15, 16, 22],
            [15, 22, 21],
            [16, 17, 23],
            [16, 23, 22],
            [18, 19, 25],
            [18, 25, 24],
            [19, 20, 26],
            [19, 26, 25],
            [20, 21, 27],
            [20, 27, 26],
            [21, 22, 28],
            [21, 28, 27],
            [22, 23, 29],
            [22, 29, 28],
            [24, 25, 31],
            [24, 31, 30],
            [25, 26, 32],
            [25, 32, 31],
            [26, 27, 33],
            [26, 33, 32],
            [27, 28, 34],
            [27, 34, 33],
            [28, 29, 35],
            [28, 35, 34],
        ],
    );
    let q = plate(
        &[
            [0.23361549, 0.23979102, 0.047956314],
            [0.8208292, 0.041784916, 0.0033117796],
            [2.0311139, -0.06748165, -0.007497234],
            [-0.21030656, 0.85319746, 0.03832542],
            [0.8772622, 1.2093444, 0.02238202],
            [2.2370675, 0.7505421, -0.004907424],
            [0.26618078, 1.9189025, 0.034541335],
            [0.97722584, 2.173365, -0.027331207],
            [1.9174554, 2.1167524, 0.027532632],
        ],
        &[
            [0, 1, 4],
            [0, 4, 3],
            [1, 2, 5],
            [1, 5, 4],
            [3, 4, 7],
            [3, 7, 6],
            [4, 5, 8],
            [4, 8, 7],
        ],
    );
    let [tx, ty, tz]: [f32; 3] = [1.2157521, -0.1571216, 0.49539098];
    let [w, i, j, k]: [f32; 4] = [0.87957674, -0.2643078, -0.16352552, -0.3602021];
    let pos12 = Isometry::from_parts(
        Translation3::new(tx, ty, tz),
        UnitQuaternion::new_unchecked(Quaternion::new(w, i, j, k)),
    );
    let exact = thesis_arbitrary(
        &p,
        &q,
        &pos12,
        &ArbitraryOptions::default(),
        &mut ArbitraryWorkspace::new(),
    )
    .unwrap();
    assert!(exact.is_some(), "the plates meet");
    let options = BoxTreeOptions {
        min_elements: 1,
        ..BoxTreeOptions::default()
    };
    let (m1, m2) = (
        BoxTreeMesh::new(p, &options).unwrap(),
        BoxTreeMesh::new(q, &options).unwrap(),
    );
    let found = box_tree_intersect(&m1, &m2, &pos12, &mut BoxTreeWorkspace::new()).unwrap();
    assert!(found.is_some(), "the box trees find the contact too");
}
