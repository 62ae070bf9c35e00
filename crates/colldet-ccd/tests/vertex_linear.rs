//! Per-point linear motion (e) against exact rational truth: coordinates are dyadic (integers
//! over `D`), `tau` is sampled at `k / N` (`N` a power of two), and contact at each sample is
//! decided exactly in `i128` on the positions scaled by `D * N`. Any sampled contact must be
//! reported, with the bracket's `lo` at or before the earliest one (no false negatives), and
//! every reported hit must have the features within `1e-6` of each other at the bracket's `hi`
//! (up to `1e-4` for at most 1% of the hits: nearly parallel edges and sliver triangles, whose
//! conditions degenerate and widen the band of the interval enclosures).

use colldet_ccd::{MovingPoint, TimeOfImpact, edge_edge_linear, vertex_triangle_linear};
use colldet_geom::math::PointD;
use colldet_testkit::rng::SeededRng;

const D: i64 = 1024;
const N: i64 = 256;
const TOL: f64 = 1e-9;

type I3 = [i128; 3];
/// Numerators over `D` of a point's start and end.
type Mp = ([i64; 3], [i64; 3]);

fn sub(a: I3, b: I3) -> I3 {
    [a[0] - b[0], a[1] - b[1], a[2] - b[2]]
}
fn cross(a: I3, b: I3) -> I3 {
    [
        a[1] * b[2] - a[2] * b[1],
        a[2] * b[0] - a[0] * b[2],
        a[0] * b[1] - a[1] * b[0],
    ]
}
fn dot(a: I3, b: I3) -> i128 {
    a[0] * b[0] + a[1] * b[1] + a[2] * b[2]
}
fn is_zero(a: I3) -> bool {
    a == [0, 0, 0]
}

/// `D * N` times the position at `tau = k / N`.
fn at(p: &Mp, k: i64) -> I3 {
    [0, 1, 2].map(|i| i128::from(N * p.0[i] + k * (p.1[i] - p.0[i])))
}

fn moving(p: &Mp) -> MovingPoint {
    let f = |c: [i64; 3]| PointD::new(c[0] as f64, c[1] as f64, c[2] as f64) / D as f64;
    MovingPoint::new(f(p.0), f(p.1))
}

/// `x` on the closed segment `ab` (a point when `a == b`).
fn on_segment(x: I3, a: I3, b: I3) -> bool {
    let (u, w) = (sub(b, a), sub(x, a));
    if !is_zero(cross(u, w)) {
        return false;
    }
    if is_zero(u) {
        return is_zero(w);
    }
    let s = dot(w, u);
    0 <= s && s <= dot(u, u)
}

fn sign(x: i128) -> i128 {
    x.signum()
}

/// Exact: do the closed segments `ab` and `cd` share a point?
fn segments_meet(a: I3, b: I3, c: I3, d: I3) -> bool {
    let (u, v) = (sub(b, a), sub(d, c));
    if dot(cross(u, v), sub(c, a)) != 0 {
        return false;
    }
    let m = cross(u, v);
    if !is_zero(m) {
        let sc = sign(dot(cross(u, sub(c, a)), m));
        let sd = sign(dot(cross(u, sub(d, a)), m));
        let ta = sign(dot(cross(v, sub(a, c)), m));
        let tb = sign(dot(cross(v, sub(b, c)), m));
        return sc * sd <= 0 && ta * tb <= 0;
    }
    // Parallel or degenerate: some endpoint lies on the other segment iff they meet.
    on_segment(a, c, d) || on_segment(b, c, d) || on_segment(c, a, b) || on_segment(d, a, b)
}

/// Exact: is `p` in the closed triangle `q`?
fn in_triangle(p: I3, q: [I3; 3]) -> bool {
    let n = cross(sub(q[1], q[0]), sub(q[2], q[0]));
    if is_zero(n) {
        return (0..3).any(|i| on_segment(p, q[i], q[(i + 1) % 3]));
    }
    dot(n, sub(p, q[0])) == 0
        && (0..3).all(|i| dot(cross(sub(q[(i + 1) % 3], q[i]), sub(p, q[i])), n) >= 0)
}

fn earliest_vt(p: &Mp, q: &[Mp; 3]) -> Option<i64> {
    (0..=N).find(|&k| in_triangle(at(p, k), q.map(|x| at(&x, k))))
}

fn earliest_ee(e: &[Mp; 4]) -> Option<i64> {
    (0..=N).find(|&k| {
        let [a, b, c, d] = e.map(|x| at(&x, k));
        segments_meet(a, b, c, d)
    })
}

/// A reported hit must be a contact: at `hi` the features are within this distance (f64)...
const NEAR: f64 = 1e-6;
/// ... except for ill-conditioned pairs (nearly parallel edges, sliver triangles: the enclosure
/// band in distance grows as the conditions degenerate), rare and never farther than this.
const FAR: f64 = 1e-4;

thread_local! {
    /// Hits of this thread's test at a distance in `(NEAR, FAR]`.
    static FAR_HITS: std::cell::Cell<usize> = const { std::cell::Cell::new(0) };
}

fn pos(p: &MovingPoint, tau: f64) -> PointD {
    p.start + (p.end - p.start) * tau
}

/// Closest points of segments `p0 p1`, `q0 q1` (clamped parameters; f64).
fn segment_distance(p0: PointD, p1: PointD, q0: PointD, q1: PointD) -> f64 {
    let (u, v, w) = (p1 - p0, q1 - q0, p0 - q0);
    let (a, b, c, d, e) = (u.dot(&u), u.dot(&v), v.dot(&v), u.dot(&w), v.dot(&w));
    let den = a * c - b * b;
    let mut s = if den > 1e-300 {
        ((b * e - c * d) / den).clamp(0.0, 1.0)
    } else {
        0.0
    };
    let t = if c > 0.0 {
        ((b * s + e) / c).clamp(0.0, 1.0)
    } else {
        0.0
    };
    if a > 0.0 {
        s = ((b * t - d) / a).clamp(0.0, 1.0);
    }
    (p0 + u * s - (q0 + v * t)).norm()
}

fn point_triangle_distance(p: PointD, q: [PointD; 3]) -> f64 {
    let n = (q[1] - q[0]).cross(&(q[2] - q[0]));
    let edges = (0..3)
        .map(|i| segment_distance(p, p, q[i], q[(i + 1) % 3]))
        .fold(f64::INFINITY, f64::min);
    let inside = (0..3).all(|i| (q[(i + 1) % 3] - q[i]).cross(&(p - q[i])).dot(&n) >= 0.0);
    if inside && n.norm() > 0.0 {
        edges.min((p - q[0]).dot(&n).abs() / n.norm())
    } else {
        edges
    }
}

fn note_distance(dist: f64, what: &str) {
    assert!(dist <= FAR, "reported hit at distance {dist}: {what}");
    if dist > NEAR {
        FAR_HITS.with(|c| c.set(c.get() + 1));
    }
}

/// At most 1% of the hits may be in the ill-conditioned band.
fn assert_few_far(hits: usize) {
    let far = FAR_HITS.with(|c| c.get());
    assert!(
        far * 100 <= hits.max(100),
        "{far} of {hits} hits farther than {NEAR}"
    );
}

fn run_vt(p: &Mp, q: &[Mp; 3]) -> Option<TimeOfImpact> {
    let (p, q) = (moving(p), q.map(|x| moving(&x)));
    let toi = vertex_triangle_linear(&p, &q, TOL).expect("valid input")?;
    let (ph, qh) = (pos(&p, toi.hi), q.map(|x| pos(&x, toi.hi)));
    let dist = point_triangle_distance(ph, qh);
    note_distance(dist, &format!("{toi:?} {ph:?} {qh:?}"));
    Some(toi)
}

fn run_ee(e: &[Mp; 4]) -> Option<TimeOfImpact> {
    let [a, b, c, d] = e.map(|x| moving(&x));
    let toi = edge_edge_linear(&a, &b, &c, &d, TOL).expect("valid input")?;
    let [a, b, c, d] = [a, b, c, d].map(|x| pos(&x, toi.hi));
    let dist = segment_distance(a, b, c, d);
    note_distance(dist, &format!("{toi:?} {a:?} {b:?} {c:?} {d:?}"));
    Some(toi)
}

/// Checks the report against the exact earliest sampled contact; returns whether it was a hit.
fn check(report: Option<TimeOfImpact>, truth: Option<i64>, what: &str) -> bool {
    if let Some(toi) = report {
        assert!(
            0.0 <= toi.lo && toi.lo <= toi.hi && toi.hi <= 1.0,
            "{what}: {toi:?}"
        );
        assert!(toi.width() <= TOL, "{what}: {toi:?}");
    }
    if let Some(k) = truth {
        let toi = report.unwrap_or_else(|| panic!("{what}: missed the contact at {k}/{N}"));
        // k / N is exact in f64.
        assert!(
            toi.lo <= k as f64 / N as f64,
            "{what}: lo {} after {k}/{N}",
            toi.lo
        );
    }
    report.is_some()
}

fn rand_point(rng: &mut SeededRng, range: i64) -> [i64; 3] {
    [0; 3].map(|_| (rng.index((2 * range + 1) as usize) as i64 - range) * D)
}

fn rand_moving(rng: &mut SeededRng, range: i64) -> Mp {
    (rand_point(rng, range), rand_point(rng, range))
}

/// A random point of the grid with coordinates `j / 4` (`|j| <= 4 range`), as numerators.
fn quarter(rng: &mut SeededRng, range: i64) -> [i64; 3] {
    [0; 3].map(|_| (rng.index((8 * range + 1) as usize) as i64 - 4 * range) * (D / 4))
}

/// A point at `at_k` (numerators) at `tau = k / N`, moving with integer velocity `v`.
fn through(at_k: [i64; 3], v: [i64; 3], k: i64) -> Mp {
    let start = [0, 1, 2].map(|i| at_k[i] - v[i] * k * D / N);
    let end = [0, 1, 2].map(|i| at_k[i] + v[i] * (N - k) * D / N);
    (start, end)
}

/// A sample index, biased to the ends (touching at 0 and at 1).
fn contact_sample(rng: &mut SeededRng) -> i64 {
    match rng.index(6) {
        0 => 0,
        1 => N,
        _ => rng.index(N as usize + 1) as i64,
    }
}

#[test]
fn random_vertex_triangle_never_missed() {
    let mut rng = SeededRng::new(0x5eed_0001);
    let (mut hits, mut truths) = (0, 0);
    for case in 0..3000 {
        let flat = case % 3 == 0; // coplanar throughout
        let mut pts = [0; 4].map(|_| rand_moving(&mut rng, 2));
        if flat {
            for p in &mut pts {
                p.0[2] = 0;
                p.1[2] = 0;
            }
        }
        let [p, q0, q1, q2] = pts;
        let q = [q0, q1, q2];
        let truth = earliest_vt(&p, &q);
        truths += usize::from(truth.is_some());
        hits += usize::from(check(run_vt(&p, &q), truth, &format!("vt {case}")));
    }
    assert!(truths > 300, "too few contacts to be meaningful: {truths}");
    assert!(hits >= truths);
    assert_few_far(hits);
}

#[test]
fn constructed_vertex_triangle_contacts_found() {
    let mut rng = SeededRng::new(0x5eed_0002);
    for case in 0..3000 {
        let k = contact_sample(&mut rng);
        let corners = [0; 3].map(|_| quarter(&mut rng, 2));
        // Barycentric weights in quarters, some zero: inside, on an edge, at a corner.
        let w = match rng.index(3) {
            0 => [4, 0, 0],
            1 => {
                let a = rng.index(5) as i64;
                [a, 4 - a, 0]
            }
            _ => {
                let a = rng.index(5) as i64;
                let b = rng.index((5 - a) as usize) as i64;
                [a, b, 4 - a - b]
            }
        };
        let contact = [0, 1, 2].map(|i| (0..3).map(|j| w[j] * corners[j][i]).sum::<i64>() / 4);
        let still = case % 4 == 0; // the triangle does not move
        let q = [0, 1, 2].map(|j| {
            let v = if still {
                [0; 3]
            } else {
                rand_point(&mut rng, 1).map(|c| c / D)
            };
            through(corners[j], v, k)
        });
        let v = rand_point(&mut rng, 2).map(|c| c / D);
        let p = through(contact, v, k);
        let truth = earliest_vt(&p, &q);
        assert!(truth.is_some_and(|t| t <= k), "case {case}: construction");
        check(run_vt(&p, &q), truth, &format!("constructed vt {case}"));
    }
    assert_few_far(3000);
}

#[test]
fn random_edge_edge_never_missed() {
    let mut rng = SeededRng::new(0x5eed_0003);
    let (mut hits, mut truths) = (0, 0);
    for case in 0..3000 {
        let mut e = [0; 4].map(|_| rand_moving(&mut rng, 2));
        if case % 3 == 0 {
            for p in &mut e {
                p.0[2] = 0;
                p.1[2] = 0;
            }
        }
        let truth = earliest_ee(&e);
        truths += usize::from(truth.is_some());
        hits += usize::from(check(run_ee(&e), truth, &format!("ee {case}")));
    }
    assert!(truths > 300, "too few contacts to be meaningful: {truths}");
    assert!(hits >= truths);
    assert_few_far(hits);
}

#[test]
fn constructed_edge_edge_contacts_found() {
    let mut rng = SeededRng::new(0x5eed_0004);
    for case in 0..3000 {
        let k = contact_sample(&mut rng);
        let a = quarter(&mut rng, 2);
        let b = quarter(&mut rng, 2);
        let s = rng.index(5) as i64; // the crossing at a + s/4 (b - a)
        let x = [0, 1, 2].map(|i| a[i] + s * (b[i] - a[i]) / 4);
        let (c, d) = if case % 3 == 0 {
            // Parallel (collinear at contact): c, d on line ab.
            // x between c and d.
            let (al, be) = (-(rng.index(5) as i64), rng.index(5) as i64);
            let on = |t: i64| [0, 1, 2].map(|i| x[i] + t * (b[i] - a[i]) / 4);
            (on(al), on(be))
        } else {
            let c = quarter(&mut rng, 2);
            let lam = rng.index(4) as i64; // d = x + lam/2 (x - c)
            (c, [0, 1, 2].map(|i| x[i] + lam * (x[i] - c[i]) / 2))
        };
        let shared = rand_point(&mut rng, 1).map(|c| c / D);
        let vel = |rng: &mut SeededRng, same: bool| {
            if same {
                shared
            } else {
                rand_point(rng, 2).map(|c| c / D)
            }
        };
        // Same velocity for both points of an edge half the time (a translating edge).
        let rigid = case % 2 == 0;
        let va = vel(&mut rng, false);
        let vb = if rigid { va } else { vel(&mut rng, false) };
        let vc = vel(&mut rng, case % 5 == 0);
        let vd = if rigid { vc } else { vel(&mut rng, false) };
        let e = [
            through(a, va, k),
            through(b, vb, k),
            through(c, vc, k),
            through(d, vd, k),
        ];
        let truth = earliest_ee(&e);
        assert!(truth.is_some_and(|t| t <= k), "case {case}: construction");
        check(run_ee(&e), truth, &format!("constructed ee {case}"));
    }
    assert_few_far(3000);
}

#[test]
fn analytic_cases() {
    let p = |x: f64, y: f64, z: f64| PointD::new(x, y, z);
    let fixed = |x, y, z| MovingPoint::fixed(p(x, y, z));
    let tri = [
        fixed(0.0, 0.0, 0.0),
        fixed(2.0, 0.0, 0.0),
        fixed(0.0, 2.0, 0.0),
    ];
    // Falls onto the triangle at tau = 0.3.
    let v = MovingPoint::new(p(0.5, 0.5, 3.0), p(0.5, 0.5, -7.0));
    let toi = vertex_triangle_linear(&v, &tri, TOL).unwrap().unwrap();
    assert!(toi.lo <= 0.3 && 0.3 - toi.lo <= 2.0 * TOL, "{toi:?}");
    // Misses beside the hypotenuse.
    let v = MovingPoint::new(p(1.5, 1.5, 3.0), p(1.5, 1.5, -7.0));
    assert_eq!(vertex_triangle_linear(&v, &tri, TOL).unwrap(), None);
    // Translation as the special case: the triangle moves up to meet a still vertex at 0.5.
    let up = |x, y| MovingPoint::new(p(x, y, -1.0), p(x, y, 1.0));
    let tri = [up(0.0, 0.0), up(2.0, 0.0), up(0.0, 2.0)];
    let toi = vertex_triangle_linear(&fixed(0.25, 0.25, 0.0), &tri, TOL)
        .unwrap()
        .unwrap();
    assert!(toi.lo <= 0.5 && toi.hi >= 0.5 - 2.0 * TOL, "{toi:?}");
    // Skew edges crossing at 0.25: (x axis) against a y-parallel edge descending in z.
    let (a, b) = (fixed(-1.0, 0.0, 0.0), fixed(1.0, 0.0, 0.0));
    let c = MovingPoint::new(p(0.0, -1.0, 1.0), p(0.0, -1.0, -3.0));
    let d = MovingPoint::new(p(0.0, 1.0, 1.0), p(0.0, 1.0, -3.0));
    let toi = edge_edge_linear(&a, &b, &c, &d, TOL).unwrap().unwrap();
    assert!(toi.lo <= 0.25 && toi.hi >= 0.25 - 2.0 * TOL, "{toi:?}");
    // Parallel edges sliding past each other in one plane, never touching.
    let c = MovingPoint::new(p(-3.0, -2.5, 0.0), p(3.0, 3.5, 0.0));
    let d = MovingPoint::new(p(-2.0, -1.5, 0.0), p(4.0, 4.5, 0.0));
    let (e0, e1) = (fixed(0.0, 0.0, 0.0), fixed(1.0, 1.0, 0.0));
    assert_eq!(edge_edge_linear(&e0, &e1, &c, &d, TOL).unwrap(), None);
    // Rejected input.
    let nan = fixed(f64::NAN, 0.0, 0.0);
    assert!(edge_edge_linear(&nan, &b, &c, &d, TOL).is_err());
    assert!(edge_edge_linear(&a, &b, &c, &d, 0.0).is_err());
}
