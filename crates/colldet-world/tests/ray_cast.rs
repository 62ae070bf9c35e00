//! Ray casts and overlap queries of the world (`World::ray_cast`, `ray_cast_all`, `overlap_box`,
//! `overlap_convex`): analytic cases with exact answers, degenerate rays (through shared edges and
//! corners, grazing faces, starting inside, ending exactly on a face), a mesh given in `f64` at
//! coordinates that are no `f32`, and seeded differentials: rays against a brute-force exact
//! check over every triangle of every object (the same exact predicate, no broad phase, no
//! tree) and against parry3d-f64's `cast_ray`; overlaps against the exact rational oracle.

use colldet_ccd::ray_triangle::{RaySegment3, ray_triangle};
use colldet_geom::hull::convex_hull;
use colldet_geom::math::{Point, PointD, Pose, VectorD};
use colldet_geom::{FaceList, MeshData, WorldAabb};
use colldet_narrow::PoseMatrix;
use colldet_testkit::SeededRng;
use colldet_testkit::exact_oracle::{OracleMesh, OraclePose, exact_collide};
use colldet_testkit::parry::parry_pose;
use colldet_testkit::shapes::{cone, cuboid, sphere, tetra_flake, torus};
use colldet_world::{BroadPhaseKind, Config, NO_FEATURE, ObjectId, RayHit, World, WorldError};
use nalgebra::{Translation3, UnitQuaternion};
use parry3d_f64::math::Vector as PVec;
use parry3d_f64::query::{Ray, RayCast};
use parry3d_f64::shape::TriMesh;

const INF: f64 = f64::INFINITY;

/// The box `[lo, hi]` with faces in this order: -x, +x, -y, +y, -z, +z (quads, outward).
fn box_mesh(lo: [f64; 3], hi: [f64; 3]) -> MeshData {
    let corner = |i: usize| {
        PointD::from(std::array::from_fn::<f64, 3, _>(|k| {
            if i >> k & 1 == 1 { hi[k] } else { lo[k] }
        }))
    };
    let vertices: Vec<PointD> = (0..8).map(corner).collect();
    let mut faces = FaceList::new();
    for f in [
        [0, 4, 6, 2],
        [1, 3, 7, 5],
        [0, 1, 5, 4],
        [2, 6, 7, 3],
        [0, 2, 3, 1],
        [4, 5, 7, 6],
    ] {
        faces.push(&f);
    }
    MeshData::from_f64(vertices, faces)
}

fn world() -> World<u32> {
    World::new(Config {
        threads: 1,
        ..Config::default()
    })
    .unwrap()
}

fn translation(x: f64, y: f64, z: f64) -> Pose {
    Pose::from_parts(Translation3::new(x, y, z), UnitQuaternion::identity())
}

fn p(x: f64, y: f64, z: f64) -> PointD {
    PointD::new(x, y, z)
}

fn v(x: f64, y: f64, z: f64) -> VectorD {
    VectorD::new(x, y, z)
}

/// A unit cube centred at (5, 0, 0).
fn cube_world() -> (World<u32>, ObjectId) {
    let mut w = world();
    let id = w.make_collidable(box_mesh([-0.5; 3], [0.5; 3]), 1).unwrap();
    w.set_transform(id, translation(5.0, 0.0, 0.0)).unwrap();
    (w, id)
}

fn cast(w: &mut World<u32>, o: PointD, d: VectorD, max_t: f64) -> Option<RayHit> {
    w.ray_cast(&o, &d, max_t).unwrap()
}

fn cast_all(w: &mut World<u32>, o: PointD, d: VectorD, max_t: f64) -> Vec<RayHit> {
    let mut hits = Vec::new();
    w.ray_cast_all(&o, &d, max_t, &mut hits).unwrap();
    hits
}

#[test]
fn axis_rays_hit_a_cube_at_exact_parameters() {
    let (mut w, id) = cube_world();
    for started in [false, true] {
        if started {
            w.start().unwrap();
        }
        let hit = cast(&mut w, p(0.0, 0.0, 0.0), v(1.0, 0.0, 0.0), INF).unwrap();
        assert_eq!((hit.object, hit.t, hit.face), (id, 4.5, 0));
        assert_eq!(hit.point, p(4.5, 0.0, 0.0));
        assert_eq!(hit.normal, v(-1.0, 0.0, 0.0));
        // t in units of dir.
        let hit = cast(&mut w, p(0.0, 0.1, 0.2), v(4.0, 0.0, 0.0), INF).unwrap();
        assert_eq!((hit.t, hit.face), (1.125, 0));
        // From the far side, along y and z.
        let hit = cast(&mut w, p(9.0, 0.0, 0.0), v(-1.0, 0.0, 0.0), INF).unwrap();
        assert_eq!((hit.t, hit.face, hit.normal), (3.5, 1, v(1.0, 0.0, 0.0)));
        let hit = cast(&mut w, p(5.25, -3.0, 0.0), v(0.0, 0.5, 0.0), INF).unwrap();
        assert_eq!((hit.t, hit.face, hit.normal), (5.0, 2, v(0.0, -1.0, 0.0)));
        let hit = cast(&mut w, p(5.0, 0.0, 7.0), v(0.0, 0.0, -2.0), INF).unwrap();
        assert_eq!((hit.t, hit.face, hit.normal), (3.25, 5, v(0.0, 0.0, 1.0)));
        // Misses: beside, behind, pointing away.
        assert!(cast(&mut w, p(0.0, 0.6, 0.0), v(1.0, 0.0, 0.0), INF).is_none());
        assert!(cast(&mut w, p(0.0, 0.0, 0.0), v(-1.0, 0.0, 0.0), INF).is_none());
        assert!(cast(&mut w, p(9.0, 0.0, 0.0), v(1.0, 0.0, 0.0), INF).is_none());
    }
}

#[test]
fn max_t_boundary_is_exact() {
    let (mut w, _) = cube_world();
    w.start().unwrap();
    assert_eq!(
        cast(&mut w, p(0.0, 0.0, 0.0), v(1.0, 0.0, 0.0), 4.5).map(|h| h.t),
        Some(4.5)
    );
    assert!(
        cast(
            &mut w,
            p(0.0, 0.0, 0.0),
            v(1.0, 0.0, 0.0),
            4.5f64.next_down()
        )
        .is_none()
    );
    // dir (3, 0, 0): the face at t = 1.5 exactly.
    assert!(cast(&mut w, p(0.0, 0.0, 0.0), v(3.0, 0.0, 0.0), 1.5).is_some());
    assert!(
        cast(
            &mut w,
            p(0.0, 0.0, 0.0),
            v(3.0, 0.0, 0.0),
            1.5f64.next_down()
        )
        .is_none()
    );
    // max_t = 0: only a start on or in the object counts.
    assert!(cast(&mut w, p(0.0, 0.0, 0.0), v(1.0, 0.0, 0.0), 0.0).is_none());
    assert_eq!(
        cast(&mut w, p(4.5, 0.2, 0.0), v(1.0, 0.0, 0.0), 0.0).map(|h| (h.t, h.face)),
        Some((0.0, 0))
    );
}

#[test]
fn shared_edges_and_corners_are_hit_once() {
    let (mut w, id) = cube_world();
    w.start().unwrap();
    let o = p(0.0, 0.0, 0.0);
    // The face centre lies on the diagonal its quad is fanned along.
    let hits = cast_all(&mut w, o, v(1.0, 0.0, 0.0), INF);
    assert_eq!(hits.len(), 1);
    assert_eq!((hits[0].object, hits[0].t), (id, 4.5));
    // Through the edge shared by the -x and +y faces, and through a corner.
    for target in [p(4.5, 0.5, 0.0), p(4.5, 0.5, 0.5), p(4.5, -0.5, -0.5)] {
        let d = target - o;
        let hits = cast_all(&mut w, o, d, INF);
        assert_eq!(hits.len(), 1, "{target}");
        assert_eq!(hits[0].t, 1.0, "{target}");
        let first = cast(&mut w, o, d, INF).unwrap();
        // Ties between the faces at the edge or corner go to the smallest source face.
        assert_eq!(
            (first.object, first.t, first.face),
            (id, 1.0, 0),
            "{target}"
        );
        // Just past the edge or corner: a miss.
        let past = v(0.0, target.y.signum() * 1e-12, 0.0);
        assert!(cast(&mut w, o, d + past, INF).is_none(), "{target}");
    }
}

#[test]
fn grazing_rays_touch() {
    let (mut w, id) = cube_world();
    w.start().unwrap();
    // Along the plane of the +y face: enters its edge at x = 4.5.
    let hit = cast(&mut w, p(0.0, 0.5, 0.0), v(1.0, 0.0, 0.0), INF).unwrap();
    assert_eq!((hit.object, hit.t), (id, 4.5));
    // Along an edge line of the cube.
    let hit = cast(&mut w, p(0.0, 0.5, 0.5), v(1.0, 0.0, 0.0), INF).unwrap();
    assert_eq!(hit.t, 4.5);
    // One ulp above the face: a miss.
    assert!(cast(&mut w, p(0.0, 0.5f64.next_up(), 0.0), v(1.0, 0.0, 0.0), INF).is_none());
    // Grazing a corner from a diagonal in the plane z = 0.5.
    let hit = cast(&mut w, p(4.0, 0.0, 0.5), v(1.0, 1.0, 0.0), INF).unwrap();
    assert_eq!(hit.t, 0.5);
}

#[test]
fn rays_starting_inside_or_on_an_object() {
    let (mut w, id) = cube_world();
    w.start().unwrap();
    let d = v(0.0, 3.0, 4.0);
    let hit = cast(&mut w, p(5.1, 0.2, -0.3), d, INF).unwrap();
    assert_eq!((hit.object, hit.t, hit.face), (id, 0.0, NO_FEATURE));
    assert_eq!(hit.point, p(5.1, 0.2, -0.3));
    assert_eq!(hit.normal, v(0.0, -0.6, -0.8));
    // A tiny direction (its norm would underflow if squared) gives the same unit normal.
    let hit = cast(&mut w, p(5.1, 0.2, -0.3), v(1e-200, 0.0, 0.0), INF).unwrap();
    assert_eq!((hit.t, hit.normal), (0.0, v(-1.0, 0.0, 0.0)));
    // On the surface: t = 0 with the face.
    let hit = cast(&mut w, p(5.5, 0.2, 0.1), v(1.0, 0.0, 0.0), INF).unwrap();
    assert_eq!((hit.t, hit.face), (0.0, 1));
    // An open box (no +x face) is a surface: from inside, the far wall is hit.
    let mut open = world();
    let closed = box_mesh([-0.5; 3], [0.5; 3]);
    let mut faces = FaceList::new();
    for f in [0, 2, 3, 4, 5] {
        faces.push(closed.faces.face(f));
    }
    let precise = closed.precise_vertices().map(<[_]>::to_vec);
    let mesh = match precise {
        Some(v) => MeshData::from_f64(v, faces),
        None => MeshData::new(closed.vertices.clone(), faces),
    };
    let b = open.make_collidable(mesh, 2).unwrap();
    let hit = cast(&mut open, p(0.0, 0.0, 0.0), v(-1.0, 0.0, 0.0), INF).unwrap();
    assert_eq!((hit.object, hit.t, hit.face), (b, 0.5, 0));
    assert!(cast(&mut open, p(0.0, 0.0, 0.0), v(1.0, 0.0, 0.0), INF).is_none());
}

#[test]
fn first_hit_and_all_hits_order_by_t_then_id() {
    let mut w = world();
    let cube = box_mesh([-0.5; 3], [0.5; 3]);
    let ids: Vec<ObjectId> = (0..4)
        .map(|i| w.make_collidable(cube.clone(), i).unwrap())
        .collect();
    // Along +x: cubes at x = 2, 4 and 6; the fourth beside the first, touching it on the y side.
    w.set_transform(ids[0], translation(6.0, 0.0, 0.0)).unwrap();
    w.set_transform(ids[1], translation(2.0, 0.0, 0.0)).unwrap();
    w.set_transform(ids[2], translation(4.0, 0.0, 0.0)).unwrap();
    w.set_transform(ids[3], translation(2.0, 1.0, 0.0)).unwrap();
    w.start().unwrap();
    w.check().unwrap();
    let hits = cast_all(&mut w, p(0.0, 0.5, 0.0), v(1.0, 0.0, 0.0), INF);
    let got: Vec<(ObjectId, f64)> = hits.iter().map(|h| (h.object, h.t)).collect();
    // Cubes 1 and 3 both touch y = 0.5 at x = 1.5: tie broken by id.
    assert_eq!(
        got,
        vec![(ids[1], 1.5), (ids[3], 1.5), (ids[2], 3.5), (ids[0], 5.5)]
    );
    let first = cast(&mut w, p(0.0, 0.5, 0.0), v(1.0, 0.0, 0.0), INF).unwrap();
    assert_eq!((first.object, first.t), (ids[1], 1.5));
    // max_t cuts the list.
    assert_eq!(
        cast_all(&mut w, p(0.0, 0.5, 0.0), v(1.0, 0.0, 0.0), 3.5).len(),
        3
    );
    // Moves since the last check are seen (the query index refits before the query).
    w.set_transform(ids[1], translation(2.0, 9.0, 0.0)).unwrap();
    let first = cast(&mut w, p(0.0, 0.5, 0.0), v(1.0, 0.0, 0.0), INF).unwrap();
    assert_eq!(first.object, ids[3]);
    w.remove(ids[3]).unwrap();
    let first = cast(&mut w, p(0.0, 0.5, 0.0), v(1.0, 0.0, 0.0), INF).unwrap();
    assert_eq!((first.object, first.t), (ids[2], 3.5));
}

#[test]
fn rotated_objects() {
    let (mut w, id) = cube_world();
    // 45 degrees about z: the corner edge at x = 5 - sqrt(1/2) faces the ray.
    let pose = Pose::from_parts(
        Translation3::new(5.0, 0.0, 0.0),
        UnitQuaternion::from_axis_angle(&VectorD::z_axis(), std::f64::consts::FRAC_PI_4),
    );
    w.set_transform(id, pose).unwrap();
    w.start().unwrap();
    let hit = cast(&mut w, p(0.0, 0.0, 0.0), v(1.0, 0.0, 0.0), INF).unwrap();
    assert!((hit.t - (5.0 - 0.5f64.sqrt())).abs() < 1e-14, "{}", hit.t);
    let hit = cast(&mut w, p(0.0, 0.1, 0.0), v(1.0, 0.0, 0.0), INF).unwrap();
    assert!(
        (hit.t - (5.0 - 0.5f64.sqrt() + 0.1)).abs() < 1e-14,
        "{}",
        hit.t
    );
    let s = 0.5f64.sqrt();
    assert!((hit.normal - v(-s, s, 0.0)).norm() < 1e-7, "{}", hit.normal);
}

#[test]
fn f64_mesh_is_decided_on_its_doubles() {
    // A box whose faces are at 4000.2 and y = +-0.1: neither is an f32 number.
    let mut w = world();
    let id = w
        .make_collidable(box_mesh([4000.2, -0.1, -0.1], [4001.0, 0.1, 0.1]), 7)
        .unwrap();
    w.start().unwrap();
    let o = p(0.0, 0.0, 0.0);
    let x = v(1.0, 0.0, 0.0);
    // t is computed in f64: within a few ulps of 4000.2.
    let hit = cast(&mut w, o, x, 4000.2).unwrap();
    assert_eq!(hit.object, id);
    assert!(
        (hit.t - 4000.2).abs() <= 4.0 * f64::EPSILON * 4000.2,
        "{}",
        hit.t
    );
    assert!(cast(&mut w, o, x, 4000.2f64.next_down()).is_none());
    // The f32 copy of 0.1 is larger: a ray one ulp above the double misses, though it would
    // cross the f32 copy.
    assert!(0.1f32 as f64 > 0.1f64.next_up());
    assert!(cast(&mut w, p(0.0, 0.1, 0.0), x, INF).is_some());
    assert!(cast(&mut w, p(0.0, 0.1f64.next_up(), 0.0), x, INF).is_none());
    assert!(cast(&mut w, p(0.0, 0.0, (-0.1f64).next_down()), x, INF).is_none());
}

#[test]
fn bad_input_is_refused() {
    let (mut w, cube) = cube_world();
    let o = p(0.0, 0.0, 0.0);
    let x = v(1.0, 0.0, 0.0);
    let bad =
        |r: Result<Option<RayHit>, WorldError>| matches!(r, Err(WorldError::InvalidArgument(_)));
    assert!(bad(w.ray_cast(&p(f64::NAN, 0.0, 0.0), &x, INF)));
    assert!(bad(w.ray_cast(&p(INF, 0.0, 0.0), &x, INF)));
    assert!(bad(w.ray_cast(&o, &v(0.0, 0.0, 0.0), INF)));
    assert!(bad(w.ray_cast(&o, &v(INF, 0.0, 0.0), INF)));
    assert!(bad(w.ray_cast(&o, &x, -1.0)));
    assert!(bad(w.ray_cast(&o, &x, f64::NAN)));
    assert!(bad(w.ray_cast(&o, &v(1e16, 0.0, 0.0), INF)));
    // Only subnormal components: no scale of the direction exists in the normal range.
    // (A pre-filled hit list comes back empty from an error.)
    assert!(bad(w.ray_cast(&o, &v(1e-310, -1e-320, 0.0), INF)));
    let mut hits = vec![RayHit {
        object: cube,
        t: 1.0,
        point: o,
        normal: x,
        face: 0,
    }];
    assert!(matches!(
        w.ray_cast_all(&o, &x, -0.5, &mut hits),
        Err(WorldError::InvalidArgument(_))
    ));
    assert!(hits.is_empty());
    let mut ids = Vec::new();
    let inverted = WorldAabb::new(p(1.0, 0.0, 0.0), p(0.0, 1.0, 1.0));
    assert!(matches!(
        w.overlap_box(&inverted, &mut ids),
        Err(WorldError::InvalidArgument(_))
    ));
    let flat = [
        p(0.0, 0.0, 0.0),
        p(1.0, 0.0, 0.0),
        p(0.0, 1.0, 0.0),
        p(1.0, 1.0, 0.0),
    ];
    assert!(matches!(
        w.overlap_convex(&flat, &Pose::identity(), &mut ids),
        Err(WorldError::InvalidArgument(_))
    ));
    // Tiny and huge directions are fine (t scales with them).
    let hit = cast(&mut w, o, v(1e-300, 0.0, 0.0), INF).unwrap();
    assert_eq!(hit.t, 4.5e300);
    let hit = cast(&mut w, o, v(1e15, 0.0, 0.0), INF).unwrap();
    assert_eq!(hit.t, 4.5e-15);
}

// ---- Seeded worlds: brute force, parry, oracle ----

/// A triangle mesh (polygons fanned) as both libraries see it.
struct Body {
    mesh: MeshData,
    triangles: Vec<[u32; 3]>,
    tri: TriMesh,
}

impl Body {
    fn new(mesh: MeshData) -> Self {
        let mut triangles = Vec::new();
        for face in mesh.faces.iter() {
            for k in 1..face.len() - 1 {
                triangles.push([face[0], face[k], face[k + 1]]);
            }
        }
        let mesh = MeshData::new(mesh.vertices.clone(), FaceList::from_triangles(&triangles));
        let pv: Vec<PVec> = (0..mesh.vertices.len())
            .map(|i| {
                let p = mesh.vertex_f64(i);
                PVec::new(p.x, p.y, p.z)
            })
            .collect();
        let tri = TriMesh::new(pv, triangles.clone()).expect("trimesh");
        Self {
            mesh,
            triangles,
            tri,
        }
    }

    fn oracle(&self) -> OracleMesh {
        OracleMesh {
            vertices: (0..self.mesh.vertices.len())
                .map(|i| self.mesh.vertex_f64(i).coords.into())
                .collect(),
            triangles: self.triangles.clone(),
        }
    }
}

fn zoo() -> Vec<Body> {
    vec![
        Body::new(torus(1.0, 0.3, 16, 8).unwrap()),
        Body::new(tetra_flake(1, 0.8).unwrap()),
        Body::new(sphere(0.6, 12, 6).unwrap()),
        Body::new(cone(0.5, 1.0, 10).unwrap()),
        Body::new(cuboid(VectorD::new(0.7, 0.2, 0.4)).unwrap()),
        Body::new(square()),
    ]
}

fn square() -> MeshData {
    let h = 0.5f32;
    let vertices = vec![
        Point::new(-h, -h, 0.0),
        Point::new(h, -h, 0.0),
        Point::new(h, h, 0.0),
        Point::new(-h, h, 0.0),
    ];
    let mut faces = FaceList::new();
    faces.push(&[0, 1, 2, 3]);
    MeshData::new(vertices, faces)
}

fn random_pose(rng: &mut SeededRng, spread: f64) -> Pose {
    let t = VectorD::new(
        rng.range(-spread, spread),
        rng.range(-spread, spread),
        rng.range(-spread, spread),
    );
    Pose::from_parts(Translation3::from(t), rng.rotation())
}

/// A seeded world of `n` zoo bodies within a cube of half side `spread`.
struct Scene {
    world: World<u32>,
    bodies: Vec<Body>,
    objects: Vec<(ObjectId, usize)>,
}

fn scene(rng: &mut SeededRng, n: usize, spread: f64, broad: BroadPhaseKind) -> Scene {
    let bodies = zoo();
    let mut world = World::new(Config {
        threads: 1,
        broad_phase: broad,
        universe: Some(WorldAabb::new(
            p(-spread - 2.0, -spread - 2.0, -spread - 2.0),
            p(spread + 2.0, spread + 2.0, spread + 2.0),
        )),
        ..Config::default()
    })
    .unwrap();
    let mut objects = Vec::new();
    for i in 0..n {
        let b = rng.index(bodies.len());
        let id = world
            .make_collidable(bodies[b].mesh.clone(), i as u32)
            .unwrap();
        world.set_transform(id, random_pose(rng, spread)).unwrap();
        objects.push((id, b));
    }
    world.start().unwrap();
    world.check().unwrap();
    Scene {
        world,
        bodies,
        objects,
    }
}

/// The first contact of every object by the exact predicate on every triangle, the ray mapped
/// into each object's frame as the world maps it (its pose matrix); objects whose triangles are
/// all missed are absent. Rays here start outside every object.
fn brute_force(s: &Scene, o: &PointD, d: &VectorD, max_t: f64) -> Vec<(ObjectId, f64)> {
    let scale = 2f64.powi(-(d.abs().max().log2().floor() as i32));
    let mut out = Vec::new();
    for &(id, b) in &s.objects {
        let m = PoseMatrix::from_pose(&s.world.transform(id).unwrap()).unwrap();
        let ray = RaySegment3 {
            origin: m.inverse_transform_point(o).coords,
            dir: m.inverse_transform_vector(&(d * scale)),
            max_t: max_t / scale,
        };
        let body = &s.bodies[b];
        let best = body
            .triangles
            .iter()
            .filter_map(|t| ray_triangle(&ray, &t.map(|i| body.mesh.vertex_f64(i as usize))))
            .fold(None, |acc: Option<f64>, t| {
                Some(acc.map_or(t, |a| a.min(t)))
            });
        if let Some(t) = best {
            out.push((id, t * scale));
        }
    }
    out.sort_by(|x, y| x.1.total_cmp(&y.1).then(x.0.cmp(&y.0)));
    out
}

/// A ray from outside the scene's cube towards a random point inside it.
fn outside_ray(rng: &mut SeededRng, spread: f64) -> (PointD, VectorD, f64) {
    let o = PointD::from(rng.unit_vector().into_inner() * (spread * 2.0 + 4.0));
    let target = p(
        rng.range(-spread, spread),
        rng.range(-spread, spread),
        rng.range(-spread, spread),
    );
    let d = (target - o) * rng.range(0.1, 10.0);
    let max_t = if rng.f64() < 0.5 {
        INF
    } else {
        rng.range(0.0, 2.0) / rng.range(0.1, 10.0) * 10.0
    };
    (o, d, max_t)
}

#[test]
fn rays_match_brute_force_on_seeded_worlds() {
    let mut rng = SeededRng::new(0x7a75_0001);
    let mut hits_seen = 0;
    for (k, broad) in [
        BroadPhaseKind::SweepAndPrune,
        BroadPhaseKind::DynamicTree,
        BroadPhaseKind::Grid,
        BroadPhaseKind::Octree,
        BroadPhaseKind::AllPairs,
    ]
    .into_iter()
    .enumerate()
    {
        for round in 0..4 {
            let spread = 4.0 + 2.0 * round as f64;
            let mut s = scene(&mut rng, 30 + 10 * k, spread, broad);
            // Move some objects after the check: the index is stale for them.
            for i in 0..5 {
                let id = s.objects[i].0;
                s.world
                    .set_transform(id, random_pose(&mut rng, spread))
                    .unwrap();
            }
            for _ in 0..100 {
                let (o, d, max_t) = outside_ray(&mut rng, spread);
                let expected = brute_force(&s, &o, &d, max_t);
                let mut all = Vec::new();
                s.world.ray_cast_all(&o, &d, max_t, &mut all).unwrap();
                let got: Vec<(ObjectId, f64)> = all.iter().map(|h| (h.object, h.t)).collect();
                assert_eq!(got, expected, "{broad:?} {o} {d} {max_t}");
                let first = s.world.ray_cast(&o, &d, max_t).unwrap();
                assert_eq!(first.map(|h| (h.object, h.t)), expected.first().copied());
                hits_seen += expected.len();
            }
        }
    }
    println!("brute force: {hits_seen} object hits compared");
    assert!(hits_seen > 500, "{hits_seen}");
}

/// The query index follows the world between queries: moves of a few objects or of all (refits,
/// and rebuilds when refits degrade it), additions and removals (rebuilds), with and without
/// checks in between, before and after the start.
#[test]
fn rays_match_brute_force_while_the_world_changes() {
    let mut rng = SeededRng::new(0x7a75_0003);
    let spread = 5.0;
    let mut s = scene(&mut rng, 30, spread, BroadPhaseKind::DynamicTree);
    let mut compared = 0;
    for round in 0..40 {
        match round % 5 {
            0 => {
                for k in 0..3 {
                    let i = rng.index(s.objects.len());
                    s.world
                        .set_transform(s.objects[i].0, random_pose(&mut rng, spread))
                        .unwrap();
                    if k == 0 {
                        s.world.check().unwrap();
                    }
                }
            }
            1 => {
                // Everything drifts a little: refits; far and back: the refits degrade the tree.
                let step = match round % 20 {
                    1 => 3.0,
                    11 => -3.0,
                    _ => 0.05,
                };
                for &(id, _) in &s.objects {
                    let mut pose = s.world.transform(id).unwrap();
                    pose.translation.vector += VectorD::new(step, -step, 0.5 * step);
                    s.world.set_transform(id, pose).unwrap();
                }
            }
            2 => {
                let b = rng.index(s.bodies.len());
                let id = s
                    .world
                    .make_collidable(s.bodies[b].mesh.clone(), 1000 + round)
                    .unwrap();
                s.world
                    .set_transform(id, random_pose(&mut rng, spread))
                    .unwrap();
                s.objects.push((id, b));
            }
            3 => {
                let i = rng.index(s.objects.len());
                let (id, _) = s.objects.swap_remove(i);
                s.world.remove(id).unwrap();
                if round % 2 == 0 {
                    s.world.check().unwrap();
                }
            }
            _ => {
                // A removal and an addition reusing its slot, then a move of the new object.
                let i = rng.index(s.objects.len());
                let (id, b) = s.objects.swap_remove(i);
                s.world.remove(id).unwrap();
                s.world.check().unwrap();
                let id = s
                    .world
                    .make_collidable(s.bodies[b].mesh.clone(), 2000 + round)
                    .unwrap();
                s.objects.push((id, b));
                s.world
                    .set_transform(id, random_pose(&mut rng, spread))
                    .unwrap();
            }
        }
        for _ in 0..40 {
            let (o, d, max_t) = outside_ray(&mut rng, spread + 3.0);
            let expected = brute_force(&s, &o, &d, max_t);
            let mut all = Vec::new();
            s.world.ray_cast_all(&o, &d, max_t, &mut all).unwrap();
            let got: Vec<(ObjectId, f64)> = all.iter().map(|h| (h.object, h.t)).collect();
            assert_eq!(got, expected, "round {round}: {o} {d} {max_t}");
            let first = s.world.ray_cast(&o, &d, max_t).unwrap();
            assert_eq!(first.map(|h| (h.object, h.t)), expected.first().copied());
            compared += expected.len();
        }
    }
    println!("changing world: {compared} object hits compared");
    assert!(compared > 200, "{compared}");
}

#[test]
fn rays_match_parry_cast_ray() {
    let mut rng = SeededRng::new(0x7a75_0002);
    let (mut compared, mut near_ties, mut grazing) = (0, 0, 0);
    for _ in 0..6 {
        let spread = 6.0;
        let mut s = scene(&mut rng, 40, spread, BroadPhaseKind::SweepAndPrune);
        for _ in 0..300 {
            let (o, d, _) = outside_ray(&mut rng, spread);
            let ours = s.world.ray_cast(&o, &d, INF).unwrap();
            let ray = Ray::new(PVec::new(o.x, o.y, o.z), PVec::new(d.x, d.y, d.z));
            let mut theirs: Option<(ObjectId, f64)> = None;
            let mut all_theirs = Vec::new();
            for &(id, b) in &s.objects {
                let pose = parry_pose(&s.world.transform(id).unwrap());
                if let Some(t) = s.bodies[b].tri.cast_ray(&pose, &ray, f64::MAX, false) {
                    all_theirs.push((id, t));
                    if theirs.is_none_or(|(_, best)| t < best) {
                        theirs = Some((id, t));
                    }
                }
            }
            let scale = (o.coords.norm() + spread) / d.norm();
            match (ours, theirs) {
                (Some(h), Some((id, t))) => {
                    compared += 1;
                    if h.object != id {
                        // Two objects within rounding of each other along the ray.
                        let ours_there = all_theirs.iter().find(|e| e.0 == h.object).unwrap();
                        assert!((ours_there.1 - t).abs() <= 1e-9 * scale, "{o} {d}");
                        near_ties += 1;
                    }
                    assert!((h.t - t).abs() <= 1e-9 * scale, "{} vs {t}", h.t);
                }
                (None, None) => {}
                (ours, theirs) => {
                    // Only a ray grazing an edge or a corner may differ: a shift by 1e-9 of the
                    // scene's size must flip our answer.
                    grazing += 1;
                    let flipped = [v(1.0, 0.0, 0.0), v(0.0, 1.0, 0.0), v(0.0, 0.0, 1.0)]
                        .iter()
                        .flat_map(|e| [*e, -*e])
                        .any(|e| {
                            let shifted = o + e * 1e-9 * spread;
                            s.world.ray_cast(&shifted, &d, INF).unwrap().is_some() != ours.is_some()
                        });
                    assert!(flipped, "{o} {d}: ours {ours:?}, parry {theirs:?}");
                }
            }
        }
    }
    println!("parry: {compared} first hits compared, {near_ties} near ties, {grazing} grazing");
    assert!(compared > 300, "{compared}");
    assert!(
        near_ties + grazing <= compared / 100,
        "{near_ties} {grazing}"
    );
}

#[test]
fn overlaps_match_the_exact_oracle() {
    let mut rng = SeededRng::new(0x7a75_0003);
    let mut found = 0;
    for round in 0..3 {
        let spread = 3.0 + round as f64;
        let mut s = scene(&mut rng, 30, spread, BroadPhaseKind::DynamicTree);
        let placed: Vec<(ObjectId, OracleMesh, OraclePose)> = s
            .objects
            .iter()
            .map(|&(id, b)| {
                let m = PoseMatrix::from_pose(&s.world.transform(id).unwrap()).unwrap();
                (
                    id,
                    s.bodies[b].oracle(),
                    OraclePose::from_matrix(m.rotation(), m.translation()),
                )
            })
            .collect();
        for q in 0..40 {
            let c = p(
                rng.range(-spread, spread),
                rng.range(-spread, spread),
                rng.range(-spread, spread),
            );
            let h = v(
                rng.range(0.05, 1.5),
                rng.range(0.05, 1.5),
                rng.range(0.05, 1.5),
            );
            let (ids, qmesh, qpose) = if q % 2 == 0 {
                let b = WorldAabb::new(c - h, c + h);
                let mut ids = Vec::new();
                s.world.overlap_box(&b, &mut ids).unwrap();
                (
                    ids,
                    OracleMesh {
                        vertices: (0..8)
                            .map(|i| {
                                std::array::from_fn(|k| {
                                    if i >> k & 1 == 1 {
                                        b.maxs[k]
                                    } else {
                                        b.mins[k]
                                    }
                                })
                            })
                            .collect(),
                        triangles: box_triangles(),
                    },
                    OraclePose::IDENTITY,
                )
            } else {
                let points: Vec<PointD> = (0..12)
                    .map(|_| PointD::from(rng.unit_vector().into_inner().component_mul(&h)))
                    .collect();
                let pose = Pose::from_parts(Translation3::from(c.coords), rng.rotation());
                let mut ids = Vec::new();
                s.world.overlap_convex(&points, &pose, &mut ids).unwrap();
                let rounded: Vec<Point> = points.iter().map(|p| p.cast::<f32>()).collect();
                let hull = convex_hull(&rounded).unwrap();
                let mut triangles = Vec::new();
                for face in hull.mesh.faces.iter() {
                    for k in 1..face.len() - 1 {
                        triangles.push([face[0], face[k], face[k + 1]]);
                    }
                }
                let m = PoseMatrix::from_pose(&pose).unwrap();
                let mesh = OracleMesh {
                    vertices: hull
                        .input_index
                        .iter()
                        .map(|&i| points[i as usize].coords.into())
                        .collect(),
                    triangles,
                };
                (
                    ids,
                    mesh,
                    OraclePose::from_matrix(m.rotation(), m.translation()),
                )
            };
            let expected: Vec<ObjectId> = placed
                .iter()
                .filter(|(_, mesh, pose)| exact_collide(mesh, pose, &qmesh, &qpose).collides())
                .map(|e| e.0)
                .collect();
            let mut expected = expected;
            expected.sort_unstable();
            assert_eq!(ids, expected, "round {round} query {q}");
            found += ids.len();
        }
    }
    println!("oracle: {found} overlapping objects found");
    assert!(found > 50, "{found}");
}

/// The box corners' triangles (corner `x + 2 y + 4 z`).
fn box_triangles() -> Vec<[u32; 3]> {
    let quads = [
        [0, 4, 6, 2],
        [1, 3, 7, 5],
        [0, 1, 5, 4],
        [2, 6, 7, 3],
        [0, 2, 3, 1],
        [4, 5, 7, 6],
    ];
    quads
        .iter()
        .flat_map(|q| [[q[0], q[1], q[2]], [q[0], q[2], q[3]]])
        .collect()
}

#[test]
fn overlap_box_touching_and_containment() {
    let (mut w, id) = cube_world();
    let mut ids = Vec::new();
    // Touching the -x face exactly; one ulp short; inside the cube; enclosing it.
    let b = |lo: [f64; 3], hi: [f64; 3]| WorldAabb::new(PointD::from(lo), PointD::from(hi));
    w.overlap_box(&b([3.0, -1.0, -1.0], [4.5, 1.0, 1.0]), &mut ids)
        .unwrap();
    assert_eq!(ids, vec![id]);
    w.overlap_box(
        &b([3.0, -1.0, -1.0], [4.5f64.next_down(), 1.0, 1.0]),
        &mut ids,
    )
    .unwrap();
    assert!(ids.is_empty());
    w.start().unwrap();
    w.overlap_box(&b([4.9, -0.1, -0.1], [5.1, 0.1, 0.1]), &mut ids)
        .unwrap();
    assert_eq!(ids, vec![id]);
    w.overlap_box(&b([0.0, -9.0, -9.0], [9.0, 9.0, 9.0]), &mut ids)
        .unwrap();
    assert_eq!(ids, vec![id]);
    // A tetrahedron touching the cube's corner (5.5, 0.5, 0.5) with its own corner.
    let tet = [
        p(0.0, 0.0, 0.0),
        p(1.0, 0.0, 0.0),
        p(0.0, 1.0, 0.0),
        p(0.0, 0.0, 1.0),
    ];
    w.overlap_convex(&tet, &translation(5.5, 0.5, 0.5), &mut ids)
        .unwrap();
    assert_eq!(ids, vec![id]);
    w.overlap_convex(&tet, &translation(5.5f64.next_up(), 0.5, 0.5), &mut ids)
        .unwrap();
    assert!(ids.is_empty());
}
