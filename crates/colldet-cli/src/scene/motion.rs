//! The scene motion model, one IEEE-754 double operation per step, left to right, as `pose.h`.
//! Rust never contracts `a * b + c` into a fused multiply-add, and `f64::sin`/`cos` call the
//! platform libm, so the results are bit-identical to the C and Python references on glibc.

use super::parse::SceneObject;

/// The pose of one object at one frame: `world = r * local + t`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ScenePose {
    /// Rotation as a quaternion `(w, x, y, z)` (unit up to rounding; not re-normalised).
    pub q: [f64; 4],
    /// Rotation matrix, row-major, computed from `q`.
    pub r: [[f64; 3]; 3],
    /// Translation.
    pub t: [f64; 3],
}

/// Quaternion `(w, x, y, z)` of the rotation by `|u|` radians about `u / |u|`; identity for 0.
fn quat_from_rotvec(u: [f64; 3]) -> [f64; 4] {
    let th = (u[0] * u[0] + u[1] * u[1] + u[2] * u[2]).sqrt();
    if th == 0.0 {
        return [1.0, 0.0, 0.0, 0.0];
    }
    let h = 0.5 * th;
    let s = h.sin() / th;
    [h.cos(), u[0] * s, u[1] * s, u[2] * s]
}

/// Hamilton product `a * b` (`b` applied first).
fn quat_mul(a: [f64; 4], b: [f64; 4]) -> [f64; 4] {
    [
        a[0] * b[0] - a[1] * b[1] - a[2] * b[2] - a[3] * b[3],
        a[0] * b[1] + a[1] * b[0] + a[2] * b[3] - a[3] * b[2],
        a[0] * b[2] - a[1] * b[3] + a[2] * b[0] + a[3] * b[1],
        a[0] * b[3] + a[1] * b[2] - a[2] * b[1] + a[3] * b[0],
    ]
}

/// Row-major rotation matrix of `q`, without re-normalisation.
fn quat_to_matrix(q: [f64; 4]) -> [[f64; 3]; 3] {
    let [w, x, y, z] = q;
    let (xx, yy, zz) = (x * x, y * y, z * z);
    let (xy, xz, yz) = (x * y, x * z, y * z);
    let (wx, wy, wz) = (w * x, w * y, w * z);
    [
        [1.0 - 2.0 * (yy + zz), 2.0 * (xy - wz), 2.0 * (xz + wy)],
        [2.0 * (xy + wz), 1.0 - 2.0 * (xx + zz), 2.0 * (yz - wx)],
        [2.0 * (xz - wy), 2.0 * (yz + wx), 1.0 - 2.0 * (xx + yy)],
    ]
}

/// Mirror-folds `x` into `[lo, hi]` (a point bouncing elastically between the two); the centre
/// when the interval is empty (`!(hi > lo)`).
pub fn fold(x: f64, lo: f64, hi: f64) -> f64 {
    // `!(hi > lo)` in pose.h: also true when either bound is NaN.
    if hi.partial_cmp(&lo) != Some(std::cmp::Ordering::Greater) {
        return 0.5 * (lo + hi);
    }
    let length = hi - lo;
    let period = 2.0 * length;
    let mut t = (x - lo) % period;
    if t < 0.0 {
        t += period;
    }
    if t > length {
        t = period - t;
    }
    lo + t
}

/// Bounding radius of a mesh: the largest `sqrt(x*x + y*y + z*z)` over all listed vertices.
pub fn bounding_radius(vertices: &[[f64; 3]]) -> f64 {
    vertices.iter().fold(0.0, |r, p| {
        let n = (p[0] * p[0] + p[1] * p[1] + p[2] * p[2]).sqrt();
        if n > r { n } else { r }
    })
}

/// The pose of `object` (whose mesh has bounding radius `radius`) at integer frame `frame` inside
/// the box `[box_min, box_max]`.
pub fn pose_at(
    object: &SceneObject,
    radius: f64,
    box_min: [f64; 3],
    box_max: [f64; 3],
    frame: u32,
) -> ScenePose {
    let fd = f64::from(frame);
    let w = object.angular_velocity;
    let qw = quat_from_rotvec([w[0] * fd, w[1] * fd, w[2] * fd]);
    let qa = quat_from_rotvec(object.orientation);
    let q = quat_mul(qw, qa);
    let r = quat_to_matrix(q);
    let t = std::array::from_fn(|c| {
        fold(
            object.position[c] + object.velocity[c] * fd,
            box_min[c] + radius,
            box_max[c] - radius,
        )
    });
    ScenePose { q, r, t }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fold_bounces_between_the_walls() {
        assert_eq!(fold(0.5, 0.0, 1.0), 0.5);
        assert_eq!(fold(1.25, 0.0, 1.0), 0.75);
        assert_eq!(fold(2.25, 0.0, 1.0), 0.25);
        assert_eq!(fold(-0.25, 0.0, 1.0), 0.25);
        assert_eq!(fold(-1.75, 0.0, 1.0), 0.25);
        assert_eq!(fold(3.0, 2.0, 2.0), 2.0);
        assert_eq!(fold(3.0, 2.0, 1.0), 1.5);
    }

    #[test]
    fn rotation_about_z_by_a_quarter_turn() {
        let object = SceneObject {
            mesh: 0,
            position: [0.0; 3],
            velocity: [0.0; 3],
            orientation: [0.0, 0.0, std::f64::consts::FRAC_PI_2],
            angular_velocity: [0.0; 3],
        };
        let pose = pose_at(&object, 0.0, [-1.0; 3], [1.0; 3], 7);
        let expected = [[0.0, -1.0, 0.0], [1.0, 0.0, 0.0], [0.0, 0.0, 1.0]];
        for (row, want) in pose.r.iter().zip(expected) {
            for (got, want) in row.iter().zip(want) {
                assert!((got - want).abs() < 1e-15);
            }
        }
        assert_eq!(pose.t, [0.0; 3]);
    }

    #[test]
    fn spin_composes_after_the_initial_orientation() {
        // a = quarter turn about x, w = quarter turn about z per frame: at frame 1, R = Rz * Rx,
        // which maps y to z (Rx) and then z stays z (Rz): R * (0,1,0) = (0,0,1).
        let object = SceneObject {
            mesh: 0,
            position: [0.0; 3],
            velocity: [0.1, 0.0, 0.0],
            orientation: [std::f64::consts::FRAC_PI_2, 0.0, 0.0],
            angular_velocity: [0.0, 0.0, std::f64::consts::FRAC_PI_2],
        };
        let pose = pose_at(&object, 0.5, [-1.0; 3], [1.0; 3], 1);
        let column_y = [pose.r[0][1], pose.r[1][1], pose.r[2][1]];
        assert!(
            column_y
                .iter()
                .zip([0.0, 0.0, 1.0])
                .all(|(a, b)| (a - b).abs() < 1e-15)
        );
        // x = Rx then Rz: x -> x -> y.
        let column_x = [pose.r[0][0], pose.r[1][0], pose.r[2][0]];
        assert!(
            column_x
                .iter()
                .zip([0.0, 1.0, 0.0])
                .all(|(a, b)| (a - b).abs() < 1e-15)
        );
        // fold(0.1, -0.5, 0.5) = -0.5 + ((0.1 + 0.5) % 2.0), rounded at each step as pose.h.
        assert_eq!(pose.t[0], -0.5 + (0.1 + 0.5));
        assert_ne!(pose.t[0], 0.1);
    }

    #[test]
    fn bounding_radius_is_the_farthest_vertex() {
        assert_eq!(bounding_radius(&[[3.0, 4.0, 0.0], [0.0, 0.0, -2.0]]), 5.0);
        assert_eq!(bounding_radius(&[]), 0.0);
    }
}
