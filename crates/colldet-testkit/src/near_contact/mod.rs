//! Near-contact cases for the exact tests at CAD scale (issue 20): two testkit shapes scaled to
//! thousands of units (coordinates that are not `f32` numbers for `f64` input), placed several
//! thousand units from the origin with random rotations, object b moved along a random direction
//! to a signed gap from its first contact with object a.
//!
//! A configuration draws both poses, a direction `u` and a start for b beyond a; the contact
//! search (`contact_search`: parry3d-f64 in `f64`, then bisection on the exact oracle) finds how
//! far b travels along `-u` until it touches a, once per input precision, and each gap of [`GAPS`] gives a case with b stopped
//! `gap` short of that (negative: past it). For `f64` input the gap is absolute; for `f32` input
//! it is relative to the case's scene size (the largest translation component plus both
//! bounding radii). The generator's sign is recorded beside the truth, which the exact oracle
//! decides ([`NearContactCase::oracle`]). Everything is drawn from one [`SeededRng`], so a seed
//! gives the same cases on every machine.

mod contact_search;
mod shapes;

use std::sync::Arc;

use colldet_geom::MeshData;
use colldet_geom::math::{Point, PointD, Pose, VectorD};
use colldet_geom::mesh_data::FaceList;
use nalgebra::{Translation3, UnitQuaternion};

use crate::SeededRng;
use crate::exact_oracle::{OracleMesh, OraclePose, Verdict, exact_collide};
use contact_search::ContactSearch;
pub use shapes::{OFFSET, SCALE, ShapeKind, fan_triangles, scaled_shape};

/// The signed gap targets: positive apart, negative overlapping; absolute for `f64` input,
/// relative to the scene size for `f32` input.
pub const GAPS: [f64; 8] = [1e-2, -1e-2, 1e-4, -1e-4, 1e-6, -1e-6, 1e-8, -1e-8];

/// Draws per configuration before giving up on finding a contact.
const MAX_ATTEMPTS: usize = 32;

/// One near-contact case.
#[derive(Clone, Debug)]
pub struct NearContactCase {
    /// The configuration the case comes from (cases of one configuration share shapes, poses
    /// of a and the direction).
    pub configuration: usize,
    /// Object a's shape.
    pub shape_a: ShapeKind,
    /// Object b's shape.
    pub shape_b: ShapeKind,
    /// Whether the meshes are given in `f32` (their values are `f32` numbers; the world gets
    /// them through `MeshData::new`) rather than in `f64` (`MeshData::from_f64`).
    pub f32_input: bool,
    /// The gap target, an entry of [`GAPS`].
    pub gap_target: f64,
    /// The signed gap along the direction, in units: the target, times the scene size for
    /// `f32` input.
    pub gap: f64,
    /// The scene size the relative gaps refer to.
    pub scene_size: f64,
    /// Object a's mesh (local coordinates).
    pub mesh_a: Arc<OracleMesh>,
    /// Object b's mesh (local coordinates).
    pub mesh_b: Arc<OracleMesh>,
    /// Object a's pose.
    pub pose_a: Pose,
    /// Object b's pose.
    pub pose_b: Pose,
    /// The direction b was moved along (b travelled along `-direction` towards a).
    pub direction: [f64; 3],
}

impl NearContactCase {
    /// The generator's guess: colliding when the gap is not positive.
    pub fn generator_expects_collision(&self) -> bool {
        self.gap <= 0.0
    }

    /// Object a's mesh as the world takes it (see [`NearContactCase::f32_input`]).
    pub fn mesh_data_a(&self) -> MeshData {
        mesh_data(&self.mesh_a, self.f32_input)
    }

    /// Object b's mesh as the world takes it.
    pub fn mesh_data_b(&self) -> MeshData {
        mesh_data(&self.mesh_b, self.f32_input)
    }

    /// The exact answer for the meshes placed by the given matrices (pass the matrices the
    /// library makes of [`NearContactCase::pose_a`] and [`NearContactCase::pose_b`]).
    pub fn oracle_with(&self, pose_a: &OraclePose, pose_b: &OraclePose) -> Verdict {
        exact_collide(&self.mesh_a, pose_a, &self.mesh_b, pose_b)
    }

    /// The exact answer for the meshes placed by nalgebra's rotation matrices of the poses'
    /// quaternions.
    pub fn oracle(&self) -> Verdict {
        self.oracle_with(&oracle_pose(&self.pose_a), &oracle_pose(&self.pose_b))
    }

    /// A one-line description for failure reports.
    pub fn describe(&self) -> String {
        format!(
            "configuration {} {:?}-{:?} {} input, gap {:+e} ({:+e} units)",
            self.configuration,
            self.shape_a,
            self.shape_b,
            if self.f32_input { "f32" } else { "f64" },
            self.gap_target,
            self.gap
        )
    }
}

/// `pose` as a matrix placement: nalgebra's rotation matrix of its quaternion, as given.
pub fn oracle_pose(pose: &Pose) -> OraclePose {
    OraclePose::from_matrix(
        pose.rotation.to_rotation_matrix().matrix(),
        &pose.translation.vector,
    )
}

/// `mesh` as library input: `f32` positions through `MeshData::new` (the values must be `f32`
/// numbers), or `f64` through `MeshData::from_f64`.
pub fn mesh_data(mesh: &OracleMesh, f32_input: bool) -> MeshData {
    let faces = FaceList::from_triangles(&mesh.triangles);
    if f32_input {
        let vertices = mesh
            .vertices
            .iter()
            .map(|v| Point::new(v[0] as f32, v[1] as f32, v[2] as f32))
            .collect();
        MeshData::new(vertices, faces)
    } else {
        let vertices = mesh.vertices.iter().map(|&v| PointD::from(v)).collect();
        MeshData::from_f64(vertices, faces)
    }
}

/// The largest distance of a vertex from the local origin.
fn radius(mesh: &OracleMesh) -> f64 {
    mesh.vertices
        .iter()
        .map(|v| VectorD::from(*v).norm())
        .fold(0.0, f64::max)
}

/// `rotation * v + translation - centre` for every vertex, in `f64`.
fn placed(
    mesh: &OracleMesh,
    rotation: &UnitQuaternion<f64>,
    translation: &VectorD,
    centre: &VectorD,
) -> Vec<[f64; 3]> {
    mesh.vertices
        .iter()
        .map(|v| (rotation * VectorD::from(*v) + (translation - centre)).into())
        .collect()
}

/// The cases of `configurations` configurations drawn from `seed`: for each, the eight gaps of
/// [`GAPS`] with `f32` input, then with `f64` input. Shapes of object a cycle through
/// [`ShapeKind::ALL`]; object b's are drawn.
///
/// # Panics
/// When no contact is found in `MAX_ATTEMPTS` (32) draws (never seen).
pub fn near_contact_cases(seed: u64, configurations: usize) -> Vec<NearContactCase> {
    let mut rng = SeededRng::new(seed);
    let meshes: Vec<[Arc<OracleMesh>; 2]> = ShapeKind::ALL
        .iter()
        .map(|&k| [true, false].map(|f32_input| Arc::new(scaled_shape(k, f32_input))))
        .collect();
    let mut cases = Vec::with_capacity(configurations * 2 * GAPS.len());
    for configuration in 0..configurations {
        let ka = configuration % ShapeKind::ALL.len();
        let kb = rng.index(ShapeKind::ALL.len());
        let mut found = None;
        for _ in 0..MAX_ATTEMPTS {
            if let Some(c) = draw(&mut rng, &meshes[ka], &meshes[kb]) {
                found = Some(c);
                break;
            }
        }
        let draw = found.expect("a contact within the attempts");
        for (p, f32_input) in [true, false].into_iter().enumerate() {
            let scene_size = draw.translation_a.amax() + draw.radius_a + draw.radius_b;
            for gap_target in GAPS {
                let gap = if f32_input {
                    gap_target * scene_size
                } else {
                    gap_target
                };
                let t_b = draw.start_b - draw.direction * (draw.contact[p] - gap);
                cases.push(NearContactCase {
                    configuration,
                    shape_a: ShapeKind::ALL[ka],
                    shape_b: ShapeKind::ALL[kb],
                    f32_input,
                    gap_target,
                    gap,
                    scene_size,
                    mesh_a: meshes[ka][p].clone(),
                    mesh_b: meshes[kb][p].clone(),
                    pose_a: Pose::from_parts(
                        Translation3::from(draw.translation_a),
                        draw.rotation_a,
                    ),
                    pose_b: Pose::from_parts(Translation3::from(t_b), draw.rotation_b),
                    direction: draw.direction.into(),
                });
            }
        }
    }
    cases
}

/// A configuration with its contact travel for `f32` input (`contact[0]`) and `f64` input.
struct Draw {
    rotation_a: UnitQuaternion<f64>,
    translation_a: VectorD,
    rotation_b: UnitQuaternion<f64>,
    start_b: VectorD,
    direction: VectorD,
    radius_a: f64,
    radius_b: f64,
    contact: [f64; 2],
}

/// One attempt at a configuration: `None` when b misses a or the search fails.
fn draw(rng: &mut SeededRng, a: &[Arc<OracleMesh>; 2], b: &[Arc<OracleMesh>; 2]) -> Option<Draw> {
    let rotation_a = rng.rotation();
    let translation_a = rng.unit_vector().into_inner() * rng.range(3000.0, 9000.0);
    let rotation_b = rng.rotation();
    let direction = rng.unit_vector().into_inner();
    let (radius_a, radius_b) = (radius(&a[1]), radius(&b[1]));
    let across = rng.unit_vector().into_inner();
    let lateral = (across - direction * across.dot(&direction))
        .try_normalize(1e-6)
        .unwrap_or_else(VectorD::zeros)
        * (rng.range(0.0, 0.5) * radius_a.min(radius_b));
    let reach = 1.01 * (radius_a + radius_b);
    let start_b = translation_a + lateral + direction * reach;
    let mut contact = [0.0; 2];
    for p in 0..2 {
        let search = ContactSearch::new(
            placed(&a[p], &rotation_a, &translation_a, &translation_a),
            &a[p].triangles,
            placed(&b[p], &rotation_b, &start_b, &translation_a),
            &b[p].triangles,
        )?;
        let size = radius_a + radius_b;
        let estimate = search.first_contact(direction.into(), 2.0 * reach, size)?;
        let pose_a = oracle_pose(&Pose::from_parts(
            Translation3::from(translation_a),
            rotation_a,
        ));
        let rotation_b_matrix = rotation_b.to_rotation_matrix();
        contact[p] = contact_search::refine_transition(estimate, size, |travel| {
            let t_b = start_b - direction * travel;
            let pose_b = OraclePose::from_matrix(rotation_b_matrix.matrix(), &t_b);
            exact_collide(&a[p], &pose_a, &b[p], &pose_b).collides()
        })?;
    }
    Some(Draw {
        rotation_a,
        translation_a,
        rotation_b,
        start_b,
        direction,
        radius_a,
        radius_b,
        contact,
    })
}

#[cfg(test)]
mod tests;
