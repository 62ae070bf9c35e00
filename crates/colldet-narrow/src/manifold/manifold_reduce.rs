//! Reduction of a contact polygon to at most four points that keep the deepest point and as much
//! of the contact area as four points can.

use colldet_geom::math::{PointD, VectorD};

/// A candidate contact: its position (on the incident object) and its depth.
pub(crate) type Candidate = (PointD, f64);

/// Keeps at most four of `points` (module docs), in place: the deepest, the one farthest from
/// it, the one spanning the largest triangle with those two, and the one adding the most area
/// outside that triangle. Areas are measured in the plane normal to the unit `normal`.
pub(crate) fn reduce_to_four(points: &mut Vec<Candidate>, normal: &VectorD) {
    if points.len() <= 4 {
        return;
    }
    let deepest = index_of_max(points, |(_, depth)| *depth);
    let a = points[deepest].0;
    let far = index_of_max(points, |(p, _)| (p - a).norm_squared());
    let b = points[far].0;
    // Twice the signed area of triangle (x, y, z) seen along the normal.
    let area = |x: &PointD, y: &PointD, z: &PointD| (y - x).cross(&(z - x)).dot(normal);
    let third = index_of_max(points, |(p, _)| area(&a, &b, p).abs());
    let c = points[third].0;
    // Orient the triangle counter-clockwise around the normal; the fourth point is the one most
    // outside one of its edges.
    let (b, c) = if area(&a, &b, &c) >= 0.0 {
        (b, c)
    } else {
        (c, b)
    };
    let fourth = index_of_max(points, |(p, _)| {
        let outside = [area(&b, &a, p), area(&c, &b, p), area(&a, &c, p)];
        outside.into_iter().fold(f64::NEG_INFINITY, f64::max)
    });
    let keep = [deepest, far, third, fourth];
    let mut kept: Vec<usize> = Vec::with_capacity(4);
    for k in keep {
        if !kept.contains(&k) {
            kept.push(k);
        }
    }
    kept.sort_unstable();
    for (slot, &k) in kept.iter().enumerate() {
        points.swap(slot, k);
    }
    points.truncate(kept.len());
}

fn index_of_max(points: &[Candidate], key: impl Fn(&Candidate) -> f64) -> usize {
    let mut best = 0;
    let mut best_key = f64::NEG_INFINITY;
    for (i, c) in points.iter().enumerate() {
        let k = key(c);
        if k > best_key {
            best = i;
            best_key = k;
        }
    }
    best
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn octagon_keeps_the_deepest_point_and_a_large_quadrilateral() {
        let mut points: Vec<Candidate> = (0..8)
            .map(|k| {
                let t = f64::from(k) * std::f64::consts::FRAC_PI_4;
                (
                    PointD::new(t.cos(), t.sin(), 0.0),
                    if k == 3 { 0.2 } else { 0.1 },
                )
            })
            .collect();
        let octagon = points.clone();
        reduce_to_four(&mut points, &VectorD::z());
        assert_eq!(points.len(), 4);
        assert!(points.contains(&octagon[3]), "the deepest point stays");
        // Four of the eight corners of a unit octagon span at most area 2 (a square); this
        // choice must be that square: deepest, its opposite, and the two between.
        for k in [3, 7, 1, 5] {
            assert!(points.contains(&octagon[k]), "{k} missing: {points:?}");
        }
    }

    #[test]
    fn four_or_fewer_points_are_kept_as_they_are() {
        let mut points: Vec<Candidate> =
            vec![(PointD::origin(), 0.0), (PointD::new(1.0, 0.0, 0.0), 0.5)];
        let before = points.clone();
        reduce_to_four(&mut points, &VectorD::z());
        assert_eq!(points, before);
    }
}
