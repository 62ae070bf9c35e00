//! The generator's contact search: how far object b travels along `-u` from its start before it
//! first touches object a. A first estimate in `f64` with parry3d-f64 (a shape cast, then
//! bisection on its intersection test, which counts pairs closer than about `1e-6` of the size
//! as intersecting), then bisection on the exact oracle ([`refine_transition`]) to `f64`
//! resolution of the travel.

use parry3d_f64::math::{Pose, Vector};
use parry3d_f64::query::{ShapeCastOptions, cast_shapes, intersection_test};
use parry3d_f64::shape::TriMesh;

/// Two meshes in world coordinates (shifted by a common centre), b at its start.
pub struct ContactSearch {
    a: TriMesh,
    b: TriMesh,
}

impl ContactSearch {
    /// The search for `a_world` and `b_world` (vertex positions, already placed and shifted so
    /// the scene is near the origin) and their triangles. `None` when parry refuses a mesh.
    pub fn new(
        a_world: Vec<[f64; 3]>,
        a_triangles: &[[u32; 3]],
        b_world: Vec<[f64; 3]>,
        b_triangles: &[[u32; 3]],
    ) -> Option<Self> {
        let mesh = |v: Vec<[f64; 3]>, t: &[[u32; 3]]| {
            TriMesh::new(v.into_iter().map(Vector::from).collect(), t.to_vec()).ok()
        };
        Some(Self {
            a: mesh(a_world, a_triangles)?,
            b: mesh(b_world, b_triangles)?,
        })
    }

    /// Whether the surfaces meet with b moved by `travel` along `-u`.
    fn intersects(&self, u: [f64; 3], travel: f64) -> bool {
        let shift = Vector::from(u) * -travel;
        intersection_test(
            &Pose::IDENTITY,
            &self.a,
            &Pose::from_translation(shift),
            &self.b,
        )
        .map(|r| r.intersecting)
        .unwrap_or(false)
    }

    /// The travel along `-u` (unit) at which b first touches a by parry's intersection test, or
    /// `None` when b passes a by within `max_travel` or the test does not bracket a transition.
    /// `size` scales the bracket's steps.
    pub fn first_contact(&self, u: [f64; 3], max_travel: f64, size: f64) -> Option<f64> {
        let options = ShapeCastOptions {
            max_time_of_impact: max_travel,
            target_distance: 0.0,
            stop_at_penetration: true,
            compute_impact_geometry_on_penetration: false,
        };
        let hit = cast_shapes(
            &Pose::IDENTITY,
            Vector::ZERO,
            &self.a,
            &Pose::IDENTITY,
            -Vector::from(u),
            &self.b,
            options,
        )
        .ok()??;
        refine_transition(hit.time_of_impact, size, |travel| {
            self.intersects(u, travel)
        })
    }
}

/// The travel at which `collides(travel)` turns true, to `f64` resolution, by bisection from a
/// bracket grown around `guess` in steps from `1e-9 size` up to `1e-2 size`; `None` when no
/// transition is bracketed. `collides` is meant to be the exact oracle.
pub fn refine_transition(
    guess: f64,
    size: f64,
    mut collides: impl FnMut(f64) -> bool,
) -> Option<f64> {
    let limit = 1e-2 * size;
    let mut step = 1e-9 * size;
    let mut lo = guess - step;
    while collides(lo) {
        step *= 4.0;
        if step > limit {
            return None;
        }
        lo = guess - step;
    }
    let mut step = 1e-9 * size;
    let mut hi = guess + step;
    while !collides(hi) {
        step *= 4.0;
        if step > limit {
            return None;
        }
        hi = guess + step;
    }
    loop {
        let mid = 0.5 * (lo + hi);
        if mid <= lo || mid >= hi {
            return Some(hi);
        }
        if collides(mid) {
            hi = mid;
        } else {
            lo = mid;
        }
    }
}
