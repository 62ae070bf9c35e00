//! Interval arithmetic over `f64` with outward rounding: every operation's result is widened by
//! one unit in the last place on each side (`next_down` / `next_up`), so the result encloses the
//! exact real result of the operation on any reals in the operands. The sine and cosine enclosures
//! widen the library results by 2 ulps and include the extrema `+-1` whenever one may lie inside
//! the angle interval.
//!
//! Operands are assumed finite; callers check their inputs (a NaN propagates into NaN bounds,
//! which every sign test below treats as "undecided").

use std::ops::{Add, Mul, Neg, Sub};

use colldet_geom::math::{PointD, VectorD};

/// A closed interval `[lo, hi]` of reals (`lo <= hi`).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Interval {
    /// Lower bound.
    pub lo: f64,
    /// Upper bound.
    pub hi: f64,
}

impl Interval {
    /// `[lo, hi]` as given (no widening).
    #[inline]
    pub const fn new(lo: f64, hi: f64) -> Self {
        Self { lo, hi }
    }

    /// The degenerate interval `[x, x]` (exact: `x` is the real it stands for).
    #[inline]
    pub const fn point(x: f64) -> Self {
        Self { lo: x, hi: x }
    }

    /// The smallest interval containing both.
    #[inline]
    pub fn hull(self, other: Self) -> Self {
        Self::new(self.lo.min(other.lo), self.hi.max(other.hi))
    }

    /// `hi - lo` (rounded to nearest).
    #[inline]
    pub fn width(self) -> f64 {
        self.hi - self.lo
    }

    /// The midpoint (rounded; inside the interval for finite bounds).
    #[inline]
    pub fn mid(self) -> f64 {
        let m = 0.5 * self.lo + 0.5 * self.hi;
        m.clamp(self.lo, self.hi)
    }

    /// True when `0` is in the interval (also true for NaN bounds: undecided).
    #[inline]
    pub fn contains_zero(self) -> bool {
        !(self.lo > 0.0 || self.hi < 0.0)
    }

    /// True when every element is `> 0`.
    #[inline]
    pub fn is_positive(self) -> bool {
        self.lo > 0.0
    }

    /// True when every element is `< 0`.
    #[inline]
    pub fn is_negative(self) -> bool {
        self.hi < 0.0
    }

    /// True when the two intervals share a point.
    #[inline]
    pub fn overlaps(self, other: Self) -> bool {
        !(self.lo > other.hi || other.lo > self.hi)
    }

    /// `[lo, hi]` widened outward by one ulp on each side.
    #[inline]
    fn rounded(lo: f64, hi: f64) -> Self {
        Self::new(lo.next_down(), hi.next_up())
    }

    /// `self * k` for an exact scalar `k`.
    #[inline]
    pub fn scale(self, k: f64) -> Self {
        let (a, b) = (self.lo * k, self.hi * k);
        Self::rounded(a.min(b), a.max(b))
    }

    /// `self + k` for an exact scalar `k`.
    #[inline]
    pub fn add_scalar(self, k: f64) -> Self {
        Self::rounded(self.lo + k, self.hi + k)
    }

    /// An enclosure of `sin(x)` for every real `x` in `self`.
    pub fn sin(self) -> Self {
        // Maxima at pi/2 + 2k pi, minima at -pi/2 + 2k pi.
        trig(self, f64::sin, std::f64::consts::FRAC_PI_2)
    }

    /// An enclosure of `cos(x)` for every real `x` in `self`.
    pub fn cos(self) -> Self {
        // Maxima at 2k pi, minima at pi + 2k pi.
        trig(self, f64::cos, 0.0)
    }
}

/// Enclosure of a `2 pi`-periodic function `f` (sine or cosine) whose maxima are at
/// `max_at + 2k pi` and minima half a period later, monotonic in between.
fn trig(x: Interval, f: fn(f64) -> f64, max_at: f64) -> Interval {
    use std::f64::consts::{PI, TAU};
    if !(x.lo.is_finite() && x.hi.is_finite()) || x.width() >= TAU {
        return Interval::new(-1.0, 1.0);
    }
    let widen = |v: f64, down: bool| {
        if down {
            v.next_down().next_down()
        } else {
            v.next_up().next_up()
        }
    };
    if x.lo == x.hi {
        // One point: the library value within 2 ulps, nothing to look for in between.
        let v = f(x.lo);
        return Interval::new(widen(v, true).max(-1.0), widen(v, false).min(1.0));
    }
    let (fa, fb) = (f(x.lo), f(x.hi));
    let mut lo = widen(fa.min(fb), true);
    let mut hi = widen(fa.max(fb), false);
    // An extremum `c + 2k pi` inside [lo, hi]: decided with a generous slack (pi and the
    // divisions are rounded), so that a possible one is never missed (including one only widens).
    let hits = |c: f64| {
        let slack = 1e-9 * (1.0 + x.lo.abs().max(x.hi.abs()));
        let k_lo = ((x.lo - c - slack) / TAU).ceil();
        let k_hi = ((x.hi - c + slack) / TAU).floor();
        k_lo <= k_hi
    };
    if hits(max_at) {
        hi = 1.0;
    }
    if hits(max_at + PI) {
        lo = -1.0;
    }
    Interval::new(lo.max(-1.0), hi.min(1.0))
}

impl Add for Interval {
    type Output = Self;
    #[inline]
    fn add(self, o: Self) -> Self {
        Self::rounded(self.lo + o.lo, self.hi + o.hi)
    }
}

impl Sub for Interval {
    type Output = Self;
    #[inline]
    fn sub(self, o: Self) -> Self {
        Self::rounded(self.lo - o.hi, self.hi - o.lo)
    }
}

impl Neg for Interval {
    type Output = Self;
    #[inline]
    fn neg(self) -> Self {
        Self::new(-self.hi, -self.lo)
    }
}

impl Mul for Interval {
    type Output = Self;
    #[inline]
    fn mul(self, o: Self) -> Self {
        let (a, b, c, d) = (
            self.lo * o.lo,
            self.lo * o.hi,
            self.hi * o.lo,
            self.hi * o.hi,
        );
        Self::rounded(a.min(b).min(c.min(d)), a.max(b).max(c.max(d)))
    }
}

/// A 3-vector of intervals (a box).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct IVec3(pub [Interval; 3]);

impl IVec3 {
    /// The degenerate box of an `f64` point.
    #[inline]
    pub fn from_point(p: &PointD) -> Self {
        Self([p.x, p.y, p.z].map(Interval::point))
    }

    /// The degenerate box of an `f64` vector.
    #[inline]
    pub fn from_vector(v: &VectorD) -> Self {
        Self([v.x, v.y, v.z].map(Interval::point))
    }

    /// Componentwise hull.
    #[inline]
    pub fn hull(&self, o: &Self) -> Self {
        Self([0, 1, 2].map(|i| self.0[i].hull(o.0[i])))
    }

    /// True when the boxes share a point.
    #[inline]
    pub fn overlaps(&self, o: &Self) -> bool {
        (0..3).all(|i| self.0[i].overlaps(o.0[i]))
    }

    /// Dot product enclosure.
    #[inline]
    pub fn dot(&self, o: &Self) -> Interval {
        self.0[0] * o.0[0] + self.0[1] * o.0[1] + self.0[2] * o.0[2]
    }

    /// Cross product enclosure.
    #[inline]
    pub fn cross(&self, o: &Self) -> Self {
        let [a0, a1, a2] = self.0;
        let [b0, b1, b2] = o.0;
        Self([a1 * b2 - a2 * b1, a2 * b0 - a0 * b2, a0 * b1 - a1 * b0])
    }

    /// Every component's midpoint, as a point.
    #[inline]
    pub fn mid(&self) -> PointD {
        PointD::new(self.0[0].mid(), self.0[1].mid(), self.0[2].mid())
    }
}

impl Add for IVec3 {
    type Output = Self;
    #[inline]
    fn add(self, o: Self) -> Self {
        Self([self.0[0] + o.0[0], self.0[1] + o.0[1], self.0[2] + o.0[2]])
    }
}

impl Sub for IVec3 {
    type Output = Self;
    #[inline]
    fn sub(self, o: Self) -> Self {
        Self([self.0[0] - o.0[0], self.0[1] - o.0[1], self.0[2] - o.0[2]])
    }
}

impl Mul<Interval> for IVec3 {
    type Output = Self;
    #[inline]
    fn mul(self, k: Interval) -> Self {
        Self(self.0.map(|c| c * k))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn trig_enclosures_contain_samples() {
        let cases = [
            (-0.3, 0.2),
            (1.0, 2.0),
            (3.0, 3.3),
            (-7.0, -4.0),
            (100.0, 100.5),
            (0.0, 0.0),
        ];
        for (a, b) in cases {
            let x = Interval::new(a, b);
            let (s, c) = (x.sin(), x.cos());
            for k in 0..=1000 {
                let t = a + (b - a) * f64::from(k) / 1000.0;
                assert!(s.lo <= t.sin() && t.sin() <= s.hi, "sin {t} {s:?}");
                assert!(c.lo <= t.cos() && t.cos() <= c.hi, "cos {t} {c:?}");
            }
        }
        assert_eq!(Interval::new(1.0, 2.0).sin().hi, 1.0);
        assert_eq!(Interval::new(3.0, 3.3).cos().lo, -1.0);
    }

    #[test]
    fn products_are_outward() {
        let x = Interval::new(-1.0, 3.0) * Interval::new(-2.0, 0.5);
        assert!(x.lo <= -6.0 && x.hi >= 2.0);
        assert!((Interval::point(0.1) + Interval::point(0.2)).hi > 0.3 - 1e-17);
    }
}
