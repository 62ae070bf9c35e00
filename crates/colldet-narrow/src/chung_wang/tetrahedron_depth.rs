//! How deep the origin lies inside a tetrahedron of CSO points: the certificate of a collision
//! (the search's closing tetrahedron and the cached one), and the face a refinement step pushes out.

use colldet_geom::math::VectorD;

/// The face of tetrahedron `m` with the origin least deep behind it: the index of the vertex
/// opposite it, its outward unit normal, and the origin's signed distance behind it (positive
/// inside, negative when the origin is outside that face). `None` for a degenerate tetrahedron
/// or when a depth is not a number (overflowing coordinates).
///
/// The four face normals are the cross products of the faces in the cyclic vertex order, turned
/// outward by one orientation sign (the triple product of the tetrahedron, whose sign each face
/// inherits with its permutation's parity), so they always bound a consistently oriented closed
/// surface: a rounding error in that sign turns every normal inward, and then no point lies
/// behind all four faces (nothing is certified). Faces are ranked by their signed squared depth,
/// so only the shallowest face's normal is normalised.
///
/// On CPUs with AVX (detected at run time) the same code is compiled for 4-wide lanes, one per
/// face: the same operations in the same order (no fused multiply-add), so the same answer.
pub(super) fn shallowest_face(m: &[VectorD; 4]) -> Option<(usize, VectorD, f64)> {
    #[cfg(target_arch = "x86_64")]
    if std::arch::is_x86_feature_detected!("avx") {
        // SAFETY: the CPU supports AVX (checked just above).
        return unsafe { shallowest_face_avx(m) };
    }
    shallowest_face_lanes(m)
}

/// [`shallowest_face`] compiled with AVX.
///
/// # Safety
/// The CPU must support AVX.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx")]
unsafe fn shallowest_face_avx(m: &[VectorD; 4]) -> Option<(usize, VectorD, f64)> {
    shallowest_face_lanes(m)
}

/// The body of [`shallowest_face`], inlined into each instruction-set variant.
#[inline(always)]
fn shallowest_face_lanes(m: &[VectorD; 4]) -> Option<(usize, VectorD, f64)> {
    // Lane `k` is face `k` (vertices k+1, k+2, k+3 mod 4, the first one `i`): its corners are
    // gathered once per coordinate so that every step below is one lane-wise operation on four
    // faces (the compiler pairs the lanes; each value is computed by the same scalar operations
    // in the same order as face by face).
    let corner =
        |shift: usize, c: usize| -> [f64; 4] { std::array::from_fn(|k| m[(k + shift) % 4][c]) };
    let (pi, pj, pl) = (
        [corner(1, 0), corner(1, 1), corner(1, 2)],
        [corner(2, 0), corner(2, 1), corner(2, 2)],
        [corner(3, 0), corner(3, 1), corner(3, 2)],
    );
    // The cross product of the face's edges from its first vertex, as nalgebra's `cross`
    // computes it.
    let u: [[f64; 4]; 3] = std::array::from_fn(|c| lanes(|k| pj[c][k] - pi[c][k]));
    let v: [[f64; 4]; 3] = std::array::from_fn(|c| lanes(|k| pl[c][k] - pi[c][k]));
    let n: [[f64; 4]; 3] = [
        lanes(|k| u[1][k] * v[2][k] - u[2][k] * v[1][k]),
        lanes(|k| u[2][k] * v[0][k] - u[0][k] * v[2][k]),
        lanes(|k| u[0][k] * v[1][k] - u[1][k] * v[0][k]),
    ];
    // Face (0, 1, 2) (lane 3) opposite vertex 3: its normal points towards vertex 3 iff
    // `volume6 > 0`.
    let to3 = [m[3].x - m[0].x, m[3].y - m[0].y, m[3].z - m[0].z];
    let volume6 = n[0][3] * to3[0] + n[1][3] * to3[1] + n[2][3] * to3[2];
    if volume6 == 0.0 || !volume6.is_finite() {
        return None;
    }
    // Face `k` (vertices k+1, k+2, k+3) is the even permutation (1, 3) or the odd (0, 2) of
    // (0, 1, 2, k): its normal points towards vertex k with the sign of `volume6` for odd k and
    // the opposite sign for even k. `signs` turns each face outward; multiplying by -1 or 1 is
    // exact, so only the winning face's outward normal is formed.
    let odd_sign = if volume6 > 0.0 { -1.0 } else { 1.0 };
    let signs = [-odd_sign, odd_sign, -odd_sign, odd_sign];
    let length_squared = lanes(|k| n[0][k] * n[0][k] + n[1][k] * n[1][k] + n[2][k] * n[2][k]);
    // The origin is `outward . m[i] / |outward|` deep behind the face (`i` its first vertex).
    let offset =
        lanes(|k| signs[k] * (n[0][k] * pi[0][k] + n[1][k] * pi[1][k] + n[2][k] * pi[2][k]));
    let sd = lanes(|k| offset[k] * offset[k].abs() / length_squared[k]);
    // A degenerate face (zero or NaN length) or a NaN depth certifies nothing.
    let bad = (0..4).fold(false, |bad, k| {
        bad | length_squared[k].is_nan() | (length_squared[k] <= 0.0) | sd[k].is_nan()
    });
    if bad {
        return None;
    }
    // The first face of least signed depth, by a branch-free tournament (which face wins is
    // unpredictable, and ties go to the lower index as in a scan).
    let first_pair = usize::from(sd[1] < sd[0]);
    let second_pair = 2 + usize::from(sd[3] < sd[2]);
    let opposite = if sd[second_pair] < sd[first_pair] {
        second_pair
    } else {
        first_pair
    };
    let sign = signs[opposite];
    let length = length_squared[opposite].sqrt();
    let outward = VectorD::new(
        sign * n[0][opposite],
        sign * n[1][opposite],
        sign * n[2][opposite],
    );
    Some((opposite, outward / length, offset[opposite] / length))
}

/// The four lanes `f(0), .., f(3)` (one per face).
#[inline(always)]
fn lanes(f: impl Fn(usize) -> f64) -> [f64; 4] {
    std::array::from_fn(f)
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

    /// The per-face definition, each normal turned away from its own opposite vertex.
    fn shallowest_face_by_definition(m: &[VectorD; 4]) -> (usize, f64) {
        (0..4)
            .map(|k| {
                let [i, j, l] = [(k + 1) % 4, (k + 2) % 4, (k + 3) % 4];
                let mut n = (m[j] - m[i]).cross(&(m[l] - m[i])).normalize();
                if n.dot(&(m[k] - m[i])) > 0.0 {
                    n = -n;
                }
                (k, n.dot(&m[i]))
            })
            .min_by(|a, b| a.1.total_cmp(&b.1))
            .unwrap()
    }

    #[test]
    fn agrees_with_the_per_face_definition_on_random_tetrahedra() {
        let mut state = 0x2545_f491_4f6c_dd1du64;
        let mut next = || {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            (state >> 11) as f64 / (1u64 << 53) as f64 * 2.0 - 1.0
        };
        for _ in 0..20_000 {
            let m: [VectorD; 4] = std::array::from_fn(|_| VectorD::new(next(), next(), next()));
            let (opposite, normal, depth) = shallowest_face(&m).unwrap();
            // Both instruction-set variants give the same answer, bit for bit.
            assert_eq!(shallowest_face_lanes(&m), Some((opposite, normal, depth)));
            let (expected_face, expected_depth) = shallowest_face_by_definition(&m);
            assert!((depth - expected_depth).abs() < 1e-12, "{m:?}");
            assert!(opposite == expected_face || (depth - expected_depth).abs() < 1e-12);
            assert!((normal.norm() - 1.0).abs() < 1e-14);
            // Every vertex lies on or behind the face (outward normal).
            let on_face = m[(opposite + 1) % 4];
            for x in &m {
                assert!(normal.dot(&(x - on_face)) < 1e-12, "{m:?}");
            }
        }
    }

    #[test]
    fn a_flat_tetrahedron_certifies_nothing() {
        // Coplanar points in the plane z = 1 (the origin one unit below): degenerate. Lifted by
        // a hair, the tetrahedron is so thin that the origin cannot be inside it.
        let flat = [
            VectorD::new(0.0, 0.0, 1.0),
            VectorD::new(1.0, 0.0, 1.0),
            VectorD::new(0.0, 1.0, 1.0),
            VectorD::new(0.3, 0.3, 1.0),
        ];
        assert!(shallowest_face(&flat).is_none());
        for lift in [1e-300, 1e-30, 1e-15, -1e-15] {
            let mut thin = flat;
            thin[3].z += lift;
            assert!(origin_depth_in_tetrahedron(&thin) <= 0.0, "{lift}");
        }
    }
}
