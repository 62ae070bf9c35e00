//! Exact world coordinates: every vertex's `R v + t`, computed without rounding as an integer
//! times `2^-scale`, with one `scale` shared by both meshes.
//!
//! A finite double is `m 2^e` with an integer `m`, so each product `R_ij v_j` and each sum is a
//! dyadic rational; scaling by the largest power of two any term needs makes every coordinate
//! an integer (exact rational arithmetic over a common denominator, with no gcd to compute).

use num_bigint::BigInt;
use num_traits::ToPrimitive;

use super::predicates::IntPoint;
use super::{OracleMesh, OraclePose};

/// A finite double as `(m, e)` with `x = m 2^e` and `m` odd, or `(0, 0)` for zero.
///
/// # Panics
/// For NaN or infinite `x`.
pub fn decompose(x: f64) -> (i64, i64) {
    assert!(
        x.is_finite(),
        "the exact oracle takes finite numbers only, got {x}"
    );
    if x == 0.0 {
        return (0, 0);
    }
    let bits = x.to_bits();
    let biased = ((bits >> 52) & 0x7ff) as i64;
    let fraction = bits & ((1u64 << 52) - 1);
    let (m, e) = if biased == 0 {
        (fraction, -1074)
    } else {
        (fraction | (1u64 << 52), biased - 1075)
    };
    let tz = m.trailing_zeros();
    let m = (m >> tz) as i64;
    (if bits >> 63 == 1 { -m } else { m }, e + i64::from(tz))
}

/// The smallest exponent of the nonzero values' lowest set bits, or `None` when all are zero.
fn lowest_bit(values: impl Iterator<Item = f64>) -> Option<i64> {
    values.filter(|&x| x != 0.0).map(|x| decompose(x).1).min()
}

/// The exponent `s` such that every world coordinate of both meshes is an integer times `2^-s`.
pub fn common_scale(meshes: [(&OracleMesh, &OraclePose); 2]) -> i64 {
    let mut scale = 0i64;
    for (mesh, pose) in meshes {
        let r = lowest_bit(pose.rotation.iter().flatten().copied());
        let v = lowest_bit(mesh.vertices.iter().flatten().copied());
        if let (Some(r), Some(v)) = (r, v) {
            scale = scale.max(-(r + v));
        }
        if let Some(t) = lowest_bit(pose.translation.iter().copied()) {
            scale = scale.max(-t);
        }
    }
    scale
}

/// `m 2^(e + scale)` as an integer; `e + scale` must not be negative.
fn scaled(m: i128, e: i64, scale: i64) -> BigInt {
    let shift = e + scale;
    debug_assert!(shift >= 0, "the common scale covers every term");
    BigInt::from(m) << (shift as u64)
}

/// One mesh's vertices in world coordinates: exactly, at the common scale, and rounded to
/// `f64` (for the box filters).
pub struct WorldVertices {
    /// `R v + t` exactly, times `2^scale`.
    pub exact: Vec<IntPoint>,
    /// `R v + t` evaluated in `f64`.
    pub approx: Vec<[f64; 3]>,
    /// An upper bound on `|R| |v| + |t|` over the vertices (infinity norms): the size the
    /// rounding of `approx` is relative to.
    pub magnitude: f64,
}

impl WorldVertices {
    /// The world vertices of `mesh` placed by `pose`, at the common `scale`.
    pub fn new(mesh: &OracleMesh, pose: &OraclePose, scale: i64) -> Self {
        let r = pose.rotation.map(|row| row.map(decompose));
        let t = pose.translation.map(decompose);
        let mut exact = Vec::with_capacity(mesh.vertices.len());
        let mut approx = Vec::with_capacity(mesh.vertices.len());
        let mut magnitude = 0.0f64;
        let t_norm = pose.translation.iter().fold(0.0f64, |m, x| m.max(x.abs()));
        for v in &mesh.vertices {
            let vd = v.map(decompose);
            let coordinate = |i: usize| {
                let mut sum = scaled(i128::from(t[i].0), t[i].1, scale);
                for j in 0..3 {
                    let (rm, re) = r[i][j];
                    let (vm, ve) = vd[j];
                    if rm != 0 && vm != 0 {
                        sum += scaled(i128::from(rm) * i128::from(vm), re + ve, scale);
                    }
                }
                sum
            };
            exact.push([coordinate(0), coordinate(1), coordinate(2)]);
            let rot = &pose.rotation;
            approx.push(std::array::from_fn(|i| {
                rot[i][0] * v[0] + rot[i][1] * v[1] + rot[i][2] * v[2] + pose.translation[i]
            }));
            let v_norm = v.iter().fold(0.0f64, |m, x| m.max(x.abs()));
            magnitude = magnitude.max(3.0 * v_norm + t_norm);
        }
        Self {
            exact,
            approx,
            magnitude,
        }
    }
}

/// `x 2^-scale` rounded to about `f64` precision (for filters only).
pub fn approx_of(x: &BigInt, scale: i64) -> f64 {
    let shift = (x.bits() as i64 - 60).max(0);
    let mantissa = (x >> (shift as u64)).to_f64().unwrap_or(0.0);
    mantissa * 2f64.powi((shift - scale).clamp(-2000, 2000) as i32)
}
