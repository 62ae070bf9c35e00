//! Unit tests of the box-box clipping test (against a separating-axis reference), of the tree
//! construction and of the traversal (against enumerating all leaf pairs).

use crate::RelativePose;
use core::ops::ControlFlow;

use colldet_geom::bounding::Aabb;
use colldet_geom::math::{Isometry, Point, Real};
use colldet_testkit::SplitMix64;
use nalgebra::{Matrix3, Quaternion, Translation3, UnitQuaternion, Vector3};

use super::box_clip::{ClipFrame, PairClip};
use super::box_tree::{BoxTreeNode, split_box};
use super::{BoxTree, BoxTreeOptions, boxes_intersect_by_clipping, traverse_box_trees};
use crate::error::NarrowError;

/// The random rotations and boxes of these tests, drawn from the shared [`SplitMix64`].
trait BoxDraws {
    /// A rotation: a quaternion with components uniform in `[-1, 1)` rounded to `f32`, norm in
    /// `(0.1, 1)` (rejection), normalised.
    fn rotation(&mut self) -> UnitQuaternion<f32>;

    /// A box of random centre and extents around `scale`, sometimes flat along an axis.
    fn aabb(&mut self, scale: f64) -> Aabb;
}

impl BoxDraws for SplitMix64 {
    fn rotation(&mut self) -> UnitQuaternion<f32> {
        loop {
            let q = Quaternion::new(
                self.range(-1.0, 1.0) as f32,
                self.range(-1.0, 1.0) as f32,
                self.range(-1.0, 1.0) as f32,
                self.range(-1.0, 1.0) as f32,
            );
            let n = q.norm();
            if n > 0.1 && n < 1.0 {
                return UnitQuaternion::new_normalize(q);
            }
        }
    }

    fn aabb(&mut self, scale: f64) -> Aabb {
        let mut mins = Point::origin();
        let mut maxs = Point::origin();
        for k in 0..3 {
            let c = self.range(-scale, scale);
            let h = if self.below(12) == 0 {
                0.0
            } else {
                scale * self.range(0.01, 1.0)
            };
            mins[k] = (c - h) as Real;
            maxs[k] = (c + h) as Real;
        }
        Aabb::new(mins, maxs)
    }
}

/// The exact-rotation quaternions (components 0, ±1/2, ±1): the 12 rotations of the tetrahedral
/// group, whose matrices are signed permutations, so rotated boxes keep exact coordinates.
fn exact_rotations() -> Vec<UnitQuaternion<f32>> {
    let mut out = vec![
        Quaternion::new(1.0, 0.0, 0.0, 0.0),
        Quaternion::new(0.0, 1.0, 0.0, 0.0),
        Quaternion::new(0.0, 0.0, 1.0, 0.0),
        Quaternion::new(0.0, 0.0, 0.0, 1.0),
    ];
    for s in 0..8 {
        let sign = |bit: i32| if s & (1 << bit) == 0 { 0.5 } else { -0.5 };
        out.push(Quaternion::new(0.5, sign(0), sign(1), sign(2)));
    }
    out.into_iter().map(UnitQuaternion::new_unchecked).collect()
}

fn max_abs(b: &Aabb) -> f64 {
    (0..3)
        .map(|k| f64::from(b.mins[k].abs().max(b.maxs[k].abs())))
        .fold(0.0, f64::max)
}

/// The pair's coordinate scale as the clipping test defines it.
fn pair_scale(b1: &Aabb, b2: &Aabb, pos12: &Isometry) -> f64 {
    max_abs(b1) + max_abs(b2) + f64::from(pos12.translation.vector.amax())
}

/// Separating-axis reference in `f64`: the largest signed separation of the two closed boxes over
/// the 15 candidate axes (positive: apart by at least that much; <= 0: intersecting).
fn sat_gap(b1: &Aabb, b2: &Aabb, pos12: &Isometry) -> f64 {
    let (r, t) = pos12.widened_parts().unwrap();
    let half = |b: &Aabb| -> (Vector3<f64>, Vector3<f64>) {
        let lo: Vector3<f64> = b.mins.coords.cast();
        let hi: Vector3<f64> = b.maxs.coords.cast();
        ((lo + hi) * 0.5, (hi - lo) * 0.5)
    };
    let (c1, h1) = half(b1);
    let (c2, h2) = half(b2);
    let d = r * c2 + t - c1;
    let mut axes: Vec<Vector3<f64>> = Vec::with_capacity(15);
    for i in 0..3 {
        axes.push(Vector3::ith(i, 1.0));
        axes.push(r.column(i).into_owned());
    }
    for i in 0..3 {
        for j in 0..3 {
            let l = Vector3::<f64>::ith(i, 1.0).cross(&r.column(j));
            let n = l.norm();
            if n > 1e-9 {
                axes.push(l / n);
            }
        }
    }
    axes.iter()
        .map(|l| {
            let r1: f64 = (0..3).map(|i| h1[i] * l[i].abs()).sum();
            let r2: f64 = (0..3).map(|j| h2[j] * l.dot(&r.column(j)).abs()).sum();
            d.dot(l).abs() - r1 - r2
        })
        .fold(f64::NEG_INFINITY, f64::max)
}

/// Checks a clipping verdict against the SAT reference: boxes that intersect or touch (gap at
/// most 1e-13 of the scale) must be reported overlapping; boxes apart by at least 1e-9 of the
/// scale must be reported disjoint. Returns whether the case was decided by the reference.
fn check_against_sat(
    b1: &Aabb,
    b2: &Aabb,
    pos12: &Isometry,
    overlapping: bool,
    case: usize,
) -> bool {
    let gap = sat_gap(b1, b2, pos12);
    let scale = pair_scale(b1, b2, pos12);
    if gap <= 1e-13 * scale {
        assert!(
            overlapping,
            "case {case}: intersecting boxes called disjoint (gap {gap:e}) {b1:?} {b2:?} {pos12:?}"
        );
        true
    } else if gap >= 1e-9 * scale {
        assert!(
            !overlapping,
            "case {case}: boxes {gap:e} apart called overlapping {b1:?} {b2:?} {pos12:?}"
        );
        true
    } else {
        false
    }
}

#[test]
fn clipping_matches_sat_on_random_pairs() {
    let mut rng = SplitMix64(0x0b0c_5eed);
    let mut intersecting = 0;
    let mut disjoint = 0;
    for case in 0..60_000 {
        let scale = 10f64.powf(rng.range(-6.0, 6.0));
        let b1 = rng.aabb(scale);
        let scale2 = scale * rng.range(0.2, 5.0);
        let b2 = rng.aabb(scale2);
        let rotation = rng.rotation();
        // Put box 2's centre near box 1's, at a distance around the sum of their radii.
        let c1: Vector3<f64> = ((b1.mins.coords + b1.maxs.coords) * 0.5).cast();
        let c2: Vector3<f64> = ((b2.mins.coords + b2.maxs.coords) * 0.5).cast();
        let radius = |b: &Aabb| f64::from((b.maxs - b.mins).norm()) * 0.5;
        let dir = Vector3::new(
            rng.range(-1.0, 1.0),
            rng.range(-1.0, 1.0),
            rng.range(-1.0, 1.0),
        )
        .normalize();
        let distance = (radius(&b1) + radius(&b2)) * rng.range(0.0, 1.1);
        let r: Matrix3<f64> = rotation.to_rotation_matrix().into_inner().cast();
        let t = c1 + dir * distance - r * c2;
        let pos12 = Isometry::from_parts(Translation3::from(t.cast::<f32>()), rotation);
        let overlapping = boxes_intersect_by_clipping(&b1, &b2, &pos12).unwrap();
        if check_against_sat(&b1, &b2, &pos12, overlapping, case) {
            if overlapping {
                intersecting += 1;
            } else {
                disjoint += 1;
            }
        }
    }
    assert!(
        intersecting > 15_000 && disjoint > 15_000,
        "{intersecting} / {disjoint}"
    );
}

/// Boxes with dyadic coordinates under exact rotations, placed to touch exactly face to face,
/// along an edge or at a corner (gap exactly 0), or to miss by a small fraction of their size.
#[test]
fn clipping_reports_exact_touching_as_intersecting() {
    let rotations = exact_rotations();
    let mut rng = SplitMix64(0x70c4);
    let dyadic = |rng: &mut SplitMix64, lo: f64, hi: f64| (rng.range(lo, hi) * 64.0).round() / 64.0;
    let mut touching = 0;
    let mut apart = 0;
    for case in 0..20_000 {
        let random_box = |rng: &mut SplitMix64| {
            let mut mins = Point::origin();
            let mut maxs = Point::origin();
            for k in 0..3 {
                let a = dyadic(rng, -4.0, 4.0);
                let h = dyadic(rng, 0.0, 3.0);
                mins[k] = a as Real;
                maxs[k] = (a + h) as Real;
            }
            Aabb::new(mins, maxs)
        };
        let b1 = random_box(&mut rng);
        let b2 = random_box(&mut rng);
        let rotation = rotations[rng.below(rotations.len())];
        let r: Matrix3<f64> = rotation.to_rotation_matrix().into_inner().cast();
        // Box 2's extent in frame 1 before translation (exact: r is a signed permutation).
        let corners2: Vec<Vector3<f64>> = (0..8)
            .map(|i| {
                let p = Vector3::new(
                    if i & 1 == 0 { b2.mins.x } else { b2.maxs.x },
                    if i & 2 == 0 { b2.mins.y } else { b2.maxs.y },
                    if i & 4 == 0 { b2.mins.z } else { b2.maxs.z },
                );
                r * p.cast::<f64>()
            })
            .collect();
        let lo2 = |k: usize| corners2.iter().map(|c| c[k]).fold(f64::INFINITY, f64::min);
        let hi2 = |k: usize| {
            corners2
                .iter()
                .map(|c| c[k])
                .fold(f64::NEG_INFINITY, f64::max)
        };
        // Number of axes along which the boxes touch (1: face, 2: edge, 3: corner); along the
        // others they overlap.
        let touch_axes = 1 + rng.below(3);
        let first = rng.below(3);
        let gap = if rng.below(4) == 0 { 1.0 / 64.0 } else { 0.0 };
        let mut t = Vector3::zeros();
        for n in 0..3 {
            let k = (first + n) % 3;
            if n < touch_axes {
                // Box 2 just above (or below) box 1 along k.
                t[k] = if rng.below(2) == 0 {
                    f64::from(b1.maxs[k]) - lo2(k) + gap
                } else {
                    f64::from(b1.mins[k]) - hi2(k) - gap
                };
            } else {
                // Overlapping along k: centre box 2 somewhere inside box 1's range.
                let target = dyadic(&mut rng, f64::from(b1.mins[k]), f64::from(b1.maxs[k]));
                t[k] = target - 0.5 * (lo2(k) + hi2(k));
                t[k] = (t[k] * 128.0).round() / 128.0;
            }
        }
        let pos12 = Isometry::from_parts(Translation3::from(t.cast::<f32>()), rotation);
        assert_eq!(
            t.cast::<f32>().cast::<f64>(),
            t,
            "translation must be exact"
        );
        let overlapping = boxes_intersect_by_clipping(&b1, &b2, &pos12).unwrap();
        assert!(check_against_sat(&b1, &b2, &pos12, overlapping, case));
        if gap == 0.0 {
            assert!(
                overlapping,
                "case {case}: exactly touching boxes called disjoint"
            );
            touching += 1;
        } else {
            apart += 1;
        }
    }
    assert!(touching > 10_000 && apart > 3_000);
}

/// The incremental state after a chain of random splits (of either box, following a random
/// child) agrees with the SAT reference on the sub-boxes at every level.
#[test]
fn incremental_splits_match_sat() {
    let mut rng = SplitMix64(0x5b11_7000);
    let mut decided = 0;
    for case in 0..25_000 {
        let scale = 10f64.powf(rng.range(-3.0, 3.0));
        let mut boxes = [rng.aabb(scale), rng.aabb(scale)];
        for b in &mut boxes {
            for k in 0..3 {
                if b.mins[k] == b.maxs[k] {
                    b.maxs[k] = b.mins[k] + scale as Real;
                }
            }
        }
        let rotation = if rng.below(5) == 0 {
            exact_rotations()[rng.below(12)]
        } else {
            rng.rotation()
        };
        let t = Vector3::new(
            rng.range(-1.0, 1.0),
            rng.range(-1.0, 1.0),
            rng.range(-1.0, 1.0),
        ) * scale;
        let pos12 = Isometry::from_parts(Translation3::from(t.cast::<f32>()), rotation);
        let frame = ClipFrame::new(&boxes[0], &boxes[1], &pos12).unwrap();
        let mut state: PairClip = frame.initial(&boxes[0], &boxes[1]);
        check_against_sat(&boxes[0], &boxes[1], &pos12, state.overlapping(), case);
        for _level in 0..8 {
            if !state.overlapping() {
                break;
            }
            let which = rng.below(2);
            let axis = rng.below(3);
            let b = boxes[which];
            let cut = rng.range(f64::from(b.mins[axis]), f64::from(b.maxs[axis])) as Real;
            if !(b.mins[axis] < cut && cut < b.maxs[axis]) {
                continue;
            }
            let (left, right) = frame.split(&state, which, &b, axis, cut, &boxes[1 - which]);
            let (left_box, right_box) = split_box(&b, axis, cut);
            for (child_box, child_state) in [(left_box, left), (right_box, right)] {
                let mut pair = boxes;
                pair[which] = child_box;
                if check_against_sat(&pair[0], &pair[1], &pos12, child_state.overlapping(), case) {
                    decided += 1;
                }
                assert!(child_state.live_edges(0) <= 12 && child_state.live_edges(1) <= 12);
            }
            let go_left = rng.below(2) == 0;
            boxes[which] = if go_left { left_box } else { right_box };
            state = if go_left { left } else { right };
        }
    }
    assert!(decided > 50_000, "{decided}");
}

#[test]
fn clipping_rejects_non_finite_poses() {
    let b = Aabb::new(Point::new(-1.0, -1.0, -1.0), Point::new(1.0, 1.0, 1.0));
    let mut pos12 = Isometry::identity();
    pos12.translation.vector.x = f32::NAN;
    assert!(matches!(
        boxes_intersect_by_clipping(&b, &b, &pos12),
        Err(NarrowError::NonFinite { .. })
    ));
    let mut pos12 = Isometry::identity();
    pos12.rotation = UnitQuaternion::new_unchecked(Quaternion::new(f32::INFINITY, 0.0, 0.0, 0.0));
    assert!(matches!(
        boxes_intersect_by_clipping(&b, &b, &pos12),
        Err(NarrowError::NonFinite { .. })
    ));
}

/// All non-empty leaves of a tree with their boxes.
fn leaves(tree: &BoxTree) -> Vec<(u32, Aabb)> {
    let mut out = Vec::new();
    let mut stack = vec![(0u32, tree.root_box)];
    while let Some((node, bounds)) = stack.pop() {
        match tree.nodes[node as usize] {
            BoxTreeNode::Inner {
                axis,
                cut,
                left,
                right,
            } => {
                let (l, r) = split_box(&bounds, axis as usize, cut);
                stack.push((left, l));
                stack.push((right, r));
            }
            BoxTreeNode::Leaf { len, .. } => {
                if len > 0 {
                    out.push((node, bounds));
                }
            }
        }
    }
    out
}

/// Random element boxes: small boxes scattered in a cube of side `scale`.
fn scattered_boxes(rng: &mut SplitMix64, n: usize, scale: f64) -> Vec<Aabb> {
    (0..n)
        .map(|_| {
            let mut mins = Point::origin();
            let mut maxs = Point::origin();
            for k in 0..3 {
                let c = rng.range(-scale, scale);
                let h = scale * rng.range(0.0, 0.1);
                mins[k] = (c - h) as Real;
                maxs[k] = (c + h) as Real;
            }
            Aabb::new(mins, maxs)
        })
        .collect()
}

/// The traversal visits exactly the leaf pairs the clipping test keeps, and in particular every
/// pair of intersecting leaf boxes (SAT reference), on random trees and poses.
#[test]
fn traversal_visits_every_intersecting_leaf_pair() {
    let mut rng = SplitMix64(0x7a3e);
    let options = BoxTreeOptions {
        min_elements: 2,
        ..BoxTreeOptions::default()
    };
    let mut visited_total = 0;
    for case in 0..300 {
        let scale = 10f64.powf(rng.range(-4.0, 4.0));
        let (n1, n2) = (20 + rng.below(80), 20 + rng.below(80));
        let e1 = scattered_boxes(&mut rng, n1, scale);
        let e2 = scattered_boxes(&mut rng, n2, scale);
        let t1 = BoxTree::build(&e1, &options).unwrap();
        let t2 = BoxTree::build(&e2, &options).unwrap();
        t1.validate(&e1).unwrap();
        t2.validate(&e2).unwrap();
        let t = Vector3::new(
            rng.range(-1.0, 1.0),
            rng.range(-1.0, 1.0),
            rng.range(-1.0, 1.0),
        ) * (2.0 * scale);
        let pos12 = Isometry::from_parts(Translation3::from(t.cast::<f32>()), rng.rotation());
        let mut visited: Vec<(Aabb, Aabb)> = Vec::new();
        let result: Option<()> = traverse_box_trees(&t1, &t2, &pos12, |a, b| {
            visited.push((a.bounds, b.bounds));
            ControlFlow::Continue(())
        })
        .unwrap();
        assert!(result.is_none());
        let leaves1 = leaves(&t1);
        let leaves2 = leaves(&t2);
        let scale = pair_scale(&t1.root_box, &t2.root_box, &pos12);
        for (_, a) in &leaves1 {
            for (_, b) in &leaves2 {
                let gap = sat_gap(a, b, &pos12);
                let seen = visited.contains(&(*a, *b));
                if gap <= 1e-13 * scale {
                    assert!(seen, "case {case}: intersecting leaf pair not visited");
                } else if gap >= 1e-9 * scale {
                    assert!(!seen, "case {case}: disjoint leaf pair visited");
                }
            }
        }
        visited_total += visited.len();
    }
    assert!(visited_total > 1_000, "{visited_total}");
}

#[test]
fn build_splits_two_clusters_between_them() {
    let unit = |x: f32| Aabb::new(Point::new(x, 0.0, 0.0), Point::new(x + 1.0, 1.0, 1.0));
    let elements = [unit(0.0), unit(0.0), unit(3.0), unit(3.0)];
    let options = BoxTreeOptions {
        min_elements: 2,
        min_empty_fraction: 1.0,
        ..BoxTreeOptions::default()
    };
    let tree = BoxTree::build(&elements, &options).unwrap();
    tree.validate(&elements).unwrap();
    assert_eq!(tree.node_count(), 3);
    assert_eq!(tree.leaf_count(), 2);
    assert_eq!(tree.element_references(), 4);
    let BoxTreeNode::Inner { axis, cut, .. } = tree.nodes[0] else {
        panic!("root must be split");
    };
    assert_eq!(axis, 0);
    assert!((1.0..=3.0).contains(&cut), "cut {cut}");
    assert_eq!(
        tree.root_box(),
        &Aabb::new(Point::origin(), Point::new(4.0, 1.0, 1.0))
    );
}

/// Elements touching a cut plane from one side are not duplicated: a row of unit cubes side by
/// side is partitioned without any duplicate, the cuts falling on the shared faces.
#[test]
fn build_places_cuts_on_shared_faces_without_duplicates() {
    let elements: Vec<Aabb> = (0..16)
        .map(|i| {
            let x = i as f32;
            Aabb::new(Point::new(x, 0.0, 0.0), Point::new(x + 1.0, 1.0, 1.0))
        })
        .collect();
    let options = BoxTreeOptions {
        min_elements: 1,
        ..BoxTreeOptions::default()
    };
    let tree = BoxTree::build(&elements, &options).unwrap();
    tree.validate(&elements).unwrap();
    assert_eq!(tree.element_references(), 16);
    assert_eq!(tree.leaf_count(), 16);
    assert_eq!(tree.depth(), 4);
}

/// With empty slabs cut off, the same two clusters end in two leaves whose boxes are the clusters'
/// own boxes: the slab between them is cut into empty leaves.
#[test]
fn build_cuts_off_empty_slabs() {
    let unit = |x: f32| Aabb::new(Point::new(x, 0.0, 0.0), Point::new(x + 1.0, 1.0, 1.0));
    let elements = [unit(0.0), unit(0.0), unit(3.0), unit(3.0)];
    let options = BoxTreeOptions {
        min_elements: 2,
        ..BoxTreeOptions::default()
    };
    let tree = BoxTree::build(&elements, &options).unwrap();
    tree.validate(&elements).unwrap();
    let mut full: Vec<Aabb> = Vec::new();
    let mut stack = vec![(0u32, tree.root_box)];
    let mut empty_leaves = 0;
    while let Some((node, bounds)) = stack.pop() {
        match tree.nodes[node as usize] {
            BoxTreeNode::Inner {
                axis,
                cut,
                left,
                right,
            } => {
                let (l, r) = split_box(&bounds, axis as usize, cut);
                stack.push((left, l));
                stack.push((right, r));
            }
            BoxTreeNode::Leaf { len: 0, .. } => empty_leaves += 1,
            BoxTreeNode::Leaf { .. } => full.push(bounds),
        }
    }
    assert_eq!(full.len(), 2);
    assert!(empty_leaves >= 1);
    full.sort_by(|a, b| a.mins.x.total_cmp(&b.mins.x));
    // The low side is cut one f32 step below the cluster so nothing lands in the empty child.
    assert_eq!(full[0], unit(0.0));
    assert_eq!(full[1].maxs, unit(3.0).maxs);
    assert_eq!(full[1].mins.x, 3.0f32.next_down());
}

#[test]
fn build_rejects_bad_input() {
    let b = Aabb::new(Point::origin(), Point::new(1.0, 1.0, 1.0));
    let options = BoxTreeOptions::default();
    assert!(matches!(
        BoxTree::build(&[], &options),
        Err(NarrowError::EmptyBoxTree)
    ));
    let nan = Aabb::new(Point::new(f32::NAN, 0.0, 0.0), Point::new(1.0, 1.0, 1.0));
    assert!(matches!(
        BoxTree::build(&[b, nan], &options),
        Err(NarrowError::NonFinite { .. })
    ));
    let inverted = Aabb::new(Point::new(2.0, 0.0, 0.0), Point::new(1.0, 1.0, 1.0));
    assert!(matches!(
        BoxTree::build(&[inverted], &options),
        Err(NarrowError::BrokenInvariant { .. })
    ));
    let cases = [
        BoxTreeOptions {
            max_depth: 49,
            ..options
        },
        BoxTreeOptions {
            min_elements: 0,
            ..options
        },
        BoxTreeOptions {
            crossing_penalty: f64::NAN,
            ..options
        },
        BoxTreeOptions {
            max_child_fraction: 0.0,
            ..options
        },
        BoxTreeOptions {
            cut_thickness: 0.3,
            ..options
        },
        BoxTreeOptions {
            bisection_steps: 0,
            ..options
        },
        BoxTreeOptions {
            balance_tolerance: -1.0,
            ..options
        },
        BoxTreeOptions {
            min_empty_fraction: 0.0,
            ..options
        },
    ];
    for bad in cases {
        assert!(matches!(
            BoxTree::build(&[b], &bad),
            Err(NarrowError::InvalidBoxTreeOption { .. })
        ));
    }
}

/// A single element or identical elements cannot be split: the root stays a leaf.
#[test]
fn build_keeps_unsplittable_sets_in_one_leaf() {
    let b = Aabb::new(Point::origin(), Point::new(1.0, 1.0, 1.0));
    let options = BoxTreeOptions {
        min_elements: 1,
        ..BoxTreeOptions::default()
    };
    for n in [1, 7] {
        let elements = vec![b; n];
        let tree = BoxTree::build(&elements, &options).unwrap();
        tree.validate(&elements).unwrap();
        assert_eq!(tree.node_count(), 1);
        assert_eq!(tree.element_references(), n);
    }
}
