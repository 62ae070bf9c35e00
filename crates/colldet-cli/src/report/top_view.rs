//! The top view of one frame: every object's outline seen from `+z` (the convex hull of its
//! vertices projected on the x-y plane) and which pairs collide.

use colldet_geom::math::to_f64;

use crate::demo::Demo;

/// One object's outline in the top view.
#[derive(Clone, Debug, PartialEq)]
pub struct Outline {
    /// Convex hull of the object's world vertices projected on x-y, counter-clockwise.
    pub hull: Vec<(f64, f64)>,
    /// Centre of the object (its pose's translation) projected on x-y.
    pub centre: (f64, f64),
    /// True for a mover.
    pub moving: bool,
    /// True when the object is in at least one colliding pair of the frame.
    pub colliding: bool,
}

/// One frame seen from above. Walls are left out (the cage is drawn as its outline).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct TopView {
    /// The frame (1-based: the frame's number among those played).
    pub frame: u32,
    /// Half side of the cage or box interior.
    pub half: f64,
    /// Outlines of the non-wall objects.
    pub outlines: Vec<Outline>,
    /// Colliding pairs as indices into `outlines`.
    pub pairs: Vec<(usize, usize)>,
}

impl TopView {
    /// The top view of the demo's last frame.
    pub fn of(demo: &Demo) -> Self {
        let mut index = vec![None; demo.object_count()];
        let mut outlines = Vec::with_capacity(demo.object_count());
        for (k, slot) in index.iter_mut().enumerate() {
            if demo.is_wall(k) {
                continue;
            }
            let (_, mesh, _, pose) = demo.object(k);
            let projected: Vec<(f64, f64)> = mesh
                .vertices
                .iter()
                .map(|v| {
                    let p = pose * to_f64(v);
                    (p.x, p.y)
                })
                .collect();
            let t = pose.translation.vector;
            *slot = Some(outlines.len());
            outlines.push(Outline {
                hull: convex_hull(projected),
                centre: (t.x, t.y),
                moving: demo.is_moving(k),
                colliding: false,
            });
        }
        let world = demo.world();
        let mut pairs = Vec::new();
        for &(a, b) in world.last_collisions() {
            let user = |id| world.user_data(id).ok().and_then(|&k| index[k as usize]);
            if let (Some(i), Some(j)) = (user(a), user(b)) {
                outlines[i].colliding = true;
                outlines[j].colliding = true;
                pairs.push((i, j));
            }
        }
        Self {
            frame: demo.frames_played(),
            half: demo.box_side() / 2.0,
            outlines,
            pairs,
        }
    }
}

/// Keeps the top view of the frame with the most collisions seen so far (the first such frame;
/// the first frame when none collide).
#[derive(Clone, Debug, Default)]
pub struct TopViewRecorder {
    best: Option<(usize, TopView)>,
}

impl TopViewRecorder {
    /// Looks at the demo after a frame.
    pub fn observe(&mut self, demo: &Demo) {
        let colliding = demo.world().last_collisions().len();
        if self.best.as_ref().is_none_or(|(most, _)| colliding > *most) {
            self.best = Some((colliding, TopView::of(demo)));
        }
    }

    /// The recorded view (empty when no frame was observed).
    pub fn into_view(self) -> TopView {
        self.best.map(|(_, view)| view).unwrap_or_default()
    }
}

/// Convex hull of 2D points (Andrew's monotone chain), counter-clockwise without collinear
/// points; fewer than 3 distinct points come back as they are (deduplicated).
pub fn convex_hull(mut points: Vec<(f64, f64)>) -> Vec<(f64, f64)> {
    points.sort_by(|a, b| a.0.total_cmp(&b.0).then(a.1.total_cmp(&b.1)));
    points.dedup();
    if points.len() < 3 {
        return points;
    }
    let cross = |o: (f64, f64), a: (f64, f64), b: (f64, f64)| {
        (a.0 - o.0) * (b.1 - o.1) - (a.1 - o.1) * (b.0 - o.0)
    };
    let mut hull: Vec<(f64, f64)> = Vec::with_capacity(2 * points.len());
    for pass in 0..2 {
        let start = hull.len();
        let ordered: Box<dyn Iterator<Item = &(f64, f64)>> = if pass == 0 {
            Box::new(points.iter())
        } else {
            Box::new(points.iter().rev())
        };
        for &p in ordered {
            while hull.len() >= start + 2
                && cross(hull[hull.len() - 2], hull[hull.len() - 1], p) <= 0.0
            {
                hull.pop();
            }
            hull.push(p);
        }
        hull.pop();
    }
    hull
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hull_of_a_square_with_inner_and_edge_points() {
        let points = vec![
            (0.0, 0.0),
            (1.0, 0.0),
            (0.5, 0.0),
            (1.0, 1.0),
            (0.0, 1.0),
            (0.5, 0.5),
            (0.0, 0.0),
        ];
        assert_eq!(
            convex_hull(points),
            vec![(0.0, 0.0), (1.0, 0.0), (1.0, 1.0), (0.0, 1.0)]
        );
        assert_eq!(convex_hull(vec![(1.0, 2.0), (1.0, 2.0)]), vec![(1.0, 2.0)]);
        assert_eq!(
            convex_hull(vec![(0.0, 0.0), (1.0, 1.0), (2.0, 2.0)]).len(),
            2
        );
    }
}
