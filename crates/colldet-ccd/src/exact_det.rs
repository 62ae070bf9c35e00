//! The exact sign of a 3x3 determinant whose columns are short signed sums of `f64` vectors
//! (differences of points, a translation added): the predicate behind every translational
//! sidedness and crossing test.
//!
//! A floating-point evaluation decides when its result exceeds a forward error bound (almost
//! always); otherwise the determinant is evaluated exactly in Shewchuk's expansion arithmetic
//! (sums of non-overlapping `f64` components), on the stack, without allocation.

use colldet_geom::math::VectorD;

/// A column of the determinant: `terms[0] + ... + terms[len - 1]`, each term an `f64` vector
/// (negate a vector to subtract it). At most three terms.
#[derive(Clone, Copy, Debug)]
pub struct Column {
    terms: [VectorD; 3],
    len: usize,
}

impl Column {
    /// The column `v`.
    #[inline]
    pub fn of(v: VectorD) -> Self {
        Self {
            terms: [v, VectorD::zeros(), VectorD::zeros()],
            len: 1,
        }
    }

    /// The column `a - b` (points or vectors given by coordinates).
    #[inline]
    pub fn diff(a: &VectorD, b: &VectorD) -> Self {
        Self {
            terms: [*a, -b, VectorD::zeros()],
            len: 2,
        }
    }

    /// The column `a - b + c`.
    #[inline]
    pub fn diff_plus(a: &VectorD, b: &VectorD, c: &VectorD) -> Self {
        Self {
            terms: [*a, -b, *c],
            len: 3,
        }
    }

    /// The column's value rounded to `f64`, and the sum of its terms' magnitudes (per axis).
    #[inline]
    fn approx(&self) -> (VectorD, VectorD) {
        let mut value = self.terms[0];
        let mut magnitude = self.terms[0].abs();
        for t in &self.terms[1..self.len] {
            value += t;
            magnitude += t.abs();
        }
        (value, magnitude)
    }
}

/// The determinant `det(c0, c1, c2)` in `f64` with a bound on its rounding error.
#[derive(Clone, Copy, Debug)]
pub struct Estimate {
    /// The rounded determinant.
    pub value: f64,
    /// `|value - exact| <= error`.
    pub error: f64,
}

/// `det(c0, c1, c2)` (columns) in `f64` with a forward error bound.
///
/// Each column entry carries a relative error of at most `2 eps` (two additions), each product
/// of three entries then `7 eps` of the product of magnitudes, and the six-term sum `3 eps` more:
/// the bound `16 eps * permanent(|c0|, |c1|, |c2|)` is generous.
#[inline]
pub fn estimate(c0: &Column, c1: &Column, c2: &Column) -> Estimate {
    let (a, am) = c0.approx();
    let (b, bm) = c1.approx();
    let (c, cm) = c2.approx();
    let value = a.dot(&b.cross(&c));
    let permanent = am.x * (bm.y * cm.z + bm.z * cm.y)
        + am.y * (bm.x * cm.z + bm.z * cm.x)
        + am.z * (bm.x * cm.y + bm.y * cm.x);
    Estimate {
        value,
        error: 16.0 * f64::EPSILON * permanent + f64::MIN_POSITIVE,
    }
}

/// The exact sign (`-1`, `0`, `1`) of `det(c0, c1, c2)`.
#[inline]
pub fn det_sign(c0: &Column, c1: &Column, c2: &Column) -> i8 {
    sign_of(&estimate(c0, c1, c2), c0, c1, c2)
}

/// The exact sign of `det(c0, c1, c2)` given its estimate `e` (for callers that also need the
/// value): the estimate's sign when its error bound decides, else [`exact_sign`].
#[inline]
pub fn sign_of(e: &Estimate, c0: &Column, c1: &Column, c2: &Column) -> i8 {
    if e.value > e.error {
        1
    } else if e.value < -e.error {
        -1
    } else {
        exact_sign(c0, c1, c2)
    }
}

/// The exact sign by expansion arithmetic (the slow path of [`det_sign`]).
pub fn exact_sign(c0: &Column, c1: &Column, c2: &Column) -> i8 {
    let entry = |c: &Column, axis: usize| {
        let mut e = Expansion::zero();
        for t in &c.terms[..c.len] {
            e.grow(t[axis]);
        }
        e
    };
    let m: [[Expansion; 3]; 3] = [
        [entry(c0, 0), entry(c1, 0), entry(c2, 0)],
        [entry(c0, 1), entry(c1, 1), entry(c2, 1)],
        [entry(c0, 2), entry(c1, 2), entry(c2, 2)],
    ];
    // Cofactor expansion along the first row: m00 (m11 m22 - m12 m21) - m01 (m10 m22 - m12 m20)
    // + m02 (m10 m21 - m11 m20).
    let mut total = BigExpansion::zero();
    let terms: [(usize, usize, usize, f64); 6] = [
        (0, 4, 8, 1.0),
        (0, 5, 7, -1.0),
        (1, 3, 8, -1.0),
        (1, 5, 6, 1.0),
        (2, 3, 7, 1.0),
        (2, 4, 6, -1.0),
    ];
    let at = |k: usize| &m[k / 3][k % 3];
    for (i, j, k, sign) in terms {
        let mut product = BigExpansion::zero();
        for &x in at(i).components() {
            for &y in at(j).components() {
                let (hi, lo) = two_product(x * sign, y);
                for &z in at(k).components() {
                    for part in [hi, lo] {
                        let (p, q) = two_product(part, z);
                        product.grow(q);
                        product.grow(p);
                    }
                }
            }
        }
        total.add(&product);
    }
    total.sign()
}

/// A short expansion (at most three components): a column entry.
#[derive(Clone, Copy, Debug)]
struct Expansion {
    parts: [f64; 3],
    len: usize,
}

impl Expansion {
    fn zero() -> Self {
        Self {
            parts: [0.0; 3],
            len: 0,
        }
    }

    /// Adds `x` exactly (Shewchuk's grow-expansion with zero elimination).
    fn grow(&mut self, x: f64) {
        let mut q = x;
        let mut out = [0.0; 3];
        let mut n = 0;
        for &p in &self.parts[..self.len] {
            let (s, err) = two_sum(q, p);
            if err != 0.0 {
                out[n] = err;
                n += 1;
            }
            q = s;
        }
        if q != 0.0 || n == 0 {
            if n < 3 {
                out[n] = q;
                n += 1;
            } else {
                // Three non-zero components plus a sum cannot happen for three inputs.
                out[2] += q;
            }
        }
        self.parts = out;
        self.len = n;
    }

    fn components(&self) -> &[f64] {
        &self.parts[..self.len]
    }
}

/// Capacity of the determinant's expansions: 3 * 3 * 2 * 3 * 2 = 108 components per product,
/// each product compressed before it is added to the total.
const BIG: usize = 128;

/// A longer expansion for products and the total.
struct BigExpansion {
    parts: [f64; BIG],
    len: usize,
}

impl BigExpansion {
    fn zero() -> Self {
        Self {
            parts: [0.0; BIG],
            len: 0,
        }
    }

    /// Adds `x` exactly (grow-expansion, zero elimination); compresses when full.
    fn grow(&mut self, x: f64) {
        if x == 0.0 {
            return;
        }
        let mut q = x;
        let mut n = 0;
        for i in 0..self.len {
            let (s, err) = two_sum(q, self.parts[i]);
            if err != 0.0 {
                self.parts[n] = err;
                n += 1;
            }
            q = s;
        }
        if q != 0.0 {
            self.parts[n] = q;
            n += 1;
        }
        self.len = n;
        debug_assert!(self.len < BIG);
    }

    fn add(&mut self, other: &BigExpansion) {
        for &x in &other.parts[..other.len] {
            self.grow(x);
        }
    }

    /// The sign of the exact value: the sign of the largest (last) non-zero component.
    fn sign(&self) -> i8 {
        match self.parts[..self.len].last() {
            Some(&x) if x > 0.0 => 1,
            Some(&x) if x < 0.0 => -1,
            _ => 0,
        }
    }
}

/// `a + b = s + err` exactly (Knuth's two-sum).
#[inline]
fn two_sum(a: f64, b: f64) -> (f64, f64) {
    let s = a + b;
    let bv = s - a;
    let av = s - bv;
    (s, (a - av) + (b - bv))
}

/// `a * b = p + err` exactly (Dekker's product with Veltkamp splitting; exact barring
/// overflow/underflow, which the coordinate limit `1e15` excludes for products of three).
#[inline]
fn two_product(a: f64, b: f64) -> (f64, f64) {
    let p = a * b;
    let (ah, al) = split(a);
    let (bh, bl) = split(b);
    let err = ((ah * bh - p) + ah * bl + al * bh) + al * bl;
    (p, err)
}

#[inline]
fn split(a: f64) -> (f64, f64) {
    const SPLITTER: f64 = 134_217_729.0; // 2^27 + 1
    let c = SPLITTER * a;
    let hi = c - (c - a);
    (hi, a - hi)
}

#[cfg(test)]
mod tests {
    use super::*;
    use colldet_geom::math::PointD;
    use colldet_geom::predicates::orient3d;

    fn sign(x: f64) -> i8 {
        if x > 0.0 {
            1
        } else if x < 0.0 {
            -1
        } else {
            0
        }
    }

    #[test]
    fn agrees_with_orient3d_on_near_degenerate_points() {
        // det(a - d, b - d, c - d) = orient3d(a, b, c, d): points on a line perturbed by ulps.
        let mut seed = 0x1234_5678_9abc_def0_u64;
        let mut next = || {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            (seed >> 11) as f64 / (1u64 << 53) as f64
        };
        for _ in 0..20_000 {
            let base = PointD::new(next() * 100.0, next() * 100.0, next() * 100.0);
            let dir = VectorD::new(next() - 0.5, next() - 0.5, next() - 0.5);
            let mut p = [base; 4];
            for (k, q) in p.iter_mut().enumerate() {
                *q = base + dir * (k as f64 * 0.37);
                let j = (next() * 3.0) as usize % 3;
                if next() < 0.5 {
                    q[j] = q[j].next_up();
                }
            }
            let [a, b, c, d] = p;
            let expected = sign(orient3d(&a, &b, &c, &d));
            let got = det_sign(
                &Column::diff(&a.coords, &d.coords),
                &Column::diff(&b.coords, &d.coords),
                &Column::diff(&c.coords, &d.coords),
            );
            assert_eq!(got, expected, "{a} {b} {c} {d}");
            assert_eq!(
                exact_sign(
                    &Column::diff(&a.coords, &d.coords),
                    &Column::diff(&b.coords, &d.coords),
                    &Column::diff(&c.coords, &d.coords),
                ),
                expected
            );
        }
    }

    #[test]
    fn three_term_columns_are_exact() {
        // det(e1, e2, a - b + c) with a - b + c = (0, 0, tiny) exactly: sign of tiny.
        let a = VectorD::new(1.0, 2.0, 1e16);
        let b = VectorD::new(1.0, 2.0, 1e16);
        let c = VectorD::new(0.0, 0.0, 1e-300);
        let x = Column::of(VectorD::x());
        let y = Column::of(VectorD::y());
        assert_eq!(det_sign(&x, &y, &Column::diff_plus(&a, &b, &c)), 1);
        let c = VectorD::new(5.0, 7.0, -1e-300);
        assert_eq!(det_sign(&x, &y, &Column::diff_plus(&a, &b, &c)), -1);
        let c = VectorD::new(5.0, 7.0, 0.0);
        assert_eq!(det_sign(&x, &y, &Column::diff_plus(&a, &b, &c)), 0);
        // 1 - 1e16 + 1e16 is 1 exactly, though 1 - 1e16 rounds to -1e16: the filter sees 0.
        let big = VectorD::new(0.0, 0.0, 1e16);
        let one = VectorD::new(0.0, 0.0, 1.0);
        assert_eq!(det_sign(&x, &y, &Column::diff_plus(&one, &big, &big)), 1);
        assert_eq!(
            det_sign(&x, &y, &Column::diff_plus(&(-one), &big, &big)),
            -1
        );
    }
}
