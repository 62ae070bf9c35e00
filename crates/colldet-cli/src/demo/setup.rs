//! A demo setup: meshes, objects with their start poses and motions, and the cage they fly in.
//! The presets build one ([`super::Preset::setup`]); [`super::Demo::from_setup`] plays it.
//!
//! # Cage
//! The cage interior is the cube `[-half, half]^3`. Its six walls are fixed boxes of thickness
//! `thickness` just outside it, each long enough to close the corners (walls overlap along the
//! cage's edges, so wall-wall interest is switched off). Movers are kept in by the walls alone:
//! a mover that hits a wall reverses, so it enters a wall by at most one frame's motion, far less
//! than the wall's thickness.

use std::sync::Arc;

use colldet_geom::math::{PointD, Pose, VectorD};
use colldet_geom::{GeomError, MeshData, WorldAabb};
use colldet_testkit::SeededRng;
use colldet_testkit::shapes::cuboid;
use nalgebra::{Translation3, UnitQuaternion};

use super::preset::ThesisFigures;

/// Translation per frame of a mover, as a fraction of its bounding radius.
pub const SPEED_FRACTION: f64 = 0.05;

/// Rotation per frame of a mover, degrees.
pub const ROTATION_DEGREES: f64 = 10.0;

/// How an object moves.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Motion {
    /// Never moves after the start.
    Fixed,
    /// Translates by `velocity` and turns by `spin` (applied on the left, world axes) every frame;
    /// both are reversed for the next frame whenever the object collides.
    Moving {
        /// Translation per frame, world units.
        velocity: VectorD,
        /// Rotation per frame.
        spin: UnitQuaternion<f64>,
    },
}

/// One object of a setup.
#[derive(Clone, Debug, PartialEq)]
pub struct SetupObject {
    /// Index into [`Setup::meshes`].
    pub mesh: usize,
    /// Pose at the start (local to world).
    pub pose: Pose,
    /// Its motion.
    pub motion: Motion,
    /// True for a cage wall (no collision detection between two walls).
    pub wall: bool,
}

/// Everything a demo run needs besides the world configuration.
#[derive(Clone, Debug)]
pub struct Setup {
    /// Name shown in the summary (the preset's name).
    pub name: String,
    /// The meshes, in local coordinates.
    pub meshes: Vec<Arc<MeshData>>,
    /// The objects; object `k` gets user data `k`.
    pub objects: Vec<SetupObject>,
    /// Half side of the cage interior.
    pub cage_half: f64,
    /// Region indexed by grids and octrees (the cage with its walls).
    pub universe: WorldAabb,
    /// Grid cells per axis (the thesis's grid resolution).
    pub resolution: u32,
    /// Frames played unless the caller asks for another count.
    pub frames: u32,
    /// The thesis's figures for the same experiment, when there are some.
    pub thesis: Option<&'static ThesisFigures>,
}

/// Largest distance of a vertex from the mesh's local origin.
pub fn bounding_radius(mesh: &MeshData) -> f64 {
    mesh.vertices
        .iter()
        .map(|p| f64::from(p.coords.norm()))
        .fold(0.0, f64::max)
}

/// A random direction of travel at [`SPEED_FRACTION`] of `radius` per frame and a random axis
/// turned [`ROTATION_DEGREES`] per frame.
pub fn random_motion(radius: f64, rng: &mut SeededRng) -> Motion {
    Motion::Moving {
        velocity: rng.unit_vector().into_inner() * (SPEED_FRACTION * radius),
        spin: UnitQuaternion::from_axis_angle(&rng.unit_vector(), ROTATION_DEGREES.to_radians()),
    }
}

/// Appends the six cage walls (one wall mesh, see the module docs) to `meshes` and `objects`;
/// returns the outer box of the walls.
///
/// # Errors
/// [`GeomError::InvalidShapeParameter`] for a non-positive `half` or `thickness`.
pub fn add_cage_walls(
    half: f64,
    thickness: f64,
    meshes: &mut Vec<Arc<MeshData>>,
    objects: &mut Vec<SetupObject>,
) -> Result<WorldAabb, GeomError> {
    let outer = half + thickness;
    let slab = cuboid(VectorD::new(0.5 * thickness, outer, outer))?;
    let mesh = meshes.len();
    meshes.push(Arc::new(slab));
    let centre = half + 0.5 * thickness;
    // The slab's thin axis is x; these rotations turn it to y and to z.
    let to_y = UnitQuaternion::from_axis_angle(&VectorD::z_axis(), std::f64::consts::FRAC_PI_2);
    let to_z = UnitQuaternion::from_axis_angle(&VectorD::y_axis(), -std::f64::consts::FRAC_PI_2);
    for (axis, rotation) in [(0, UnitQuaternion::identity()), (1, to_y), (2, to_z)] {
        for sign in [-1.0, 1.0] {
            let mut t = VectorD::zeros();
            t[axis] = sign * centre;
            objects.push(SetupObject {
                mesh,
                pose: Pose::from_parts(Translation3::from(t), rotation),
                motion: Motion::Fixed,
                wall: true,
            });
        }
    }
    Ok(WorldAabb::new(
        PointD::new(-outer, -outer, -outer),
        PointD::new(outer, outer, outer),
    ))
}

/// Centres for spheres of the given radii, uniform in `[-half + r, half - r]^3` and pairwise
/// disjoint (rejection sampling); `None` when `attempts` draws for one sphere all failed.
pub fn disjoint_centres(
    radii: &[f64],
    half: f64,
    attempts: usize,
    rng: &mut SeededRng,
) -> Option<Vec<PointD>> {
    let mut centres: Vec<PointD> = Vec::with_capacity(radii.len());
    for (k, &r) in radii.iter().enumerate() {
        let h = half - r;
        if h < 0.0 {
            return None;
        }
        let found = (0..attempts).find_map(|_| {
            let c = PointD::new(rng.range(-h, h), rng.range(-h, h), rng.range(-h, h));
            centres
                .iter()
                .zip(radii)
                .all(|(o, &ro)| (c - o).norm() > r + ro)
                .then_some(c)
        });
        centres.push(found?);
        debug_assert_eq!(centres.len(), k + 1);
    }
    Some(centres)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn walls_close_the_cage_without_entering_it() {
        let (mut meshes, mut objects) = (Vec::new(), Vec::new());
        let universe = add_cage_walls(2.0, 0.5, &mut meshes, &mut objects).unwrap();
        assert_eq!((meshes.len(), objects.len()), (1, 6));
        assert_eq!(universe.maxs, PointD::new(2.5, 2.5, 2.5));
        for (k, o) in objects.iter().enumerate() {
            let (axis, sign) = (k / 2, if k % 2 == 0 { -1.0 } else { 1.0 });
            let world: Vec<PointD> = meshes[0]
                .vertices
                .iter()
                .map(|v| o.pose * colldet_geom::math::to_f64(v))
                .collect();
            let (lo, hi) = world.iter().fold((f64::MAX, f64::MIN), |(lo, hi), p| {
                (lo.min(sign * p[axis]), hi.max(sign * p[axis]))
            });
            assert!((lo - 2.0).abs() < 1e-6 && (hi - 2.5).abs() < 1e-6, "{k}");
            for other in (0..3).filter(|&a| a != axis) {
                let reach = world.iter().map(|p| p[other].abs()).fold(0.0, f64::max);
                assert!((reach - 2.5).abs() < 1e-6);
            }
        }
    }

    #[test]
    fn disjoint_centres_are_disjoint_and_inside() {
        let radii = [0.5, 0.3, 0.4, 0.5, 0.2, 0.45];
        let centres = disjoint_centres(&radii, 1.5, 10_000, &mut SeededRng::new(4)).unwrap();
        for (i, c) in centres.iter().enumerate() {
            assert!((0..3).all(|a| c[a].abs() <= 1.5 - radii[i]));
            for j in 0..i {
                assert!((c - centres[j]).norm() > radii[i] + radii[j]);
            }
        }
        assert!(disjoint_centres(&[1.0, 1.0], 1.0, 100, &mut SeededRng::new(1)).is_none());
        assert!(disjoint_centres(&[2.0], 1.0, 100, &mut SeededRng::new(1)).is_none());
    }
}
