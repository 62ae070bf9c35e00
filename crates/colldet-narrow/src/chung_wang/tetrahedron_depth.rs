//! How deep the origin lies inside a tetrahedron of CSO points: the certificate of a collision
//! (the search's closing tetrahedron and the cached one), and the face a refinement step pushes out.

use colldet_geom::math::VectorD;

/// The face of tetrahedron `m` with the origin least deep behind it: the index of the vertex
/// opposite it, its outward unit normal, and the origin's signed distance behind it (positive
/// inside, negative when the origin is outside that face). `None` for a degenerate tetrahedron.
pub(super) fn shallowest_face(m: &[VectorD; 4]) -> Option<(usize, VectorD, f64)> {
    let mut best: Option<(usize, VectorD, f64)> = None;
    for opposite in 0..4 {
        let [i, j, l] = [(opposite + 1) % 4, (opposite + 2) % 4, (opposite + 3) % 4];
        let mut n = (m[j] - m[i]).cross(&(m[l] - m[i]));
        let len = n.norm();
        if len.is_nan() || len <= 0.0 {
            return None;
        }
        n /= len;
        let towards_opposite = n.dot(&(m[opposite] - m[i]));
        if towards_opposite == 0.0 || !towards_opposite.is_finite() {
            return None;
        }
        if towards_opposite > 0.0 {
            n = -n;
        }
        // Outward normal n: the origin is `n . m[i]` deep behind the face.
        let depth = n.dot(&m[i]);
        if best.is_none_or(|(_, _, d)| depth < d) {
            best = Some((opposite, n, depth));
        }
    }
    best
}

/// Distance from the origin to the nearest face plane of the tetrahedron `m` when the origin lies
/// inside it; negative when it does not, zero when the tetrahedron is degenerate.
pub(super) fn origin_depth_in_tetrahedron(m: &[VectorD; 4]) -> f64 {
    shallowest_face(m).map_or(0.0, |(_, _, depth)| depth)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn origin_depth_of_a_regular_tetrahedron() {
        // Vertices of a cube's alternate corners: the origin is the centre, at distance
        // 1/sqrt(3) from every face.
        let m = [
            VectorD::new(1.0, 1.0, 1.0),
            VectorD::new(1.0, -1.0, -1.0),
            VectorD::new(-1.0, 1.0, -1.0),
            VectorD::new(-1.0, -1.0, 1.0),
        ];
        let d = origin_depth_in_tetrahedron(&m);
        assert!((d - 1.0 / 3f64.sqrt()).abs() < 1e-15, "{d}");
        let flat = [m[0], m[1], m[2], (m[0] + m[1]) * 0.5];
        assert_eq!(origin_depth_in_tetrahedron(&flat), 0.0);
    }

    #[test]
    fn the_shallowest_face_of_a_shifted_tetrahedron_is_found_analytically() {
        // The regular tetrahedron above moved by `shift`: the face opposite vertex `v_k` has the
        // outward normal `-v_k / sqrt(3)` and lies `1/sqrt(3)` from the centre, so the origin
        // (at `-shift` from the centre) is `(1 - v_k . shift) / sqrt(3)` deep behind it. With
        // shift (3, 0.5, 0.2) that is least for v_0 = (1, 1, 1): depth -2.7 / sqrt(3).
        let v = [
            VectorD::new(1.0, 1.0, 1.0),
            VectorD::new(1.0, -1.0, -1.0),
            VectorD::new(-1.0, 1.0, -1.0),
            VectorD::new(-1.0, -1.0, 1.0),
        ];
        let shift = VectorD::new(3.0, 0.5, 0.2);
        let m = v.map(|x| x + shift);
        let (opposite, normal, depth) = shallowest_face(&m).unwrap();
        let root3 = 3f64.sqrt();
        assert_eq!(opposite, 0);
        assert!((normal + v[0] / root3).norm() < 1e-15, "{normal:?}");
        assert!((depth + 2.7 / root3).abs() < 1e-14, "{depth}");
        assert_eq!(origin_depth_in_tetrahedron(&m), depth);
    }
}
