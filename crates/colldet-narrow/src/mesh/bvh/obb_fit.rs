//! Fast bottom-up fitting of the OBBs of a freshly built tree: RAPID's area-weighted covariance
//! accumulated from the children (the moments are additive), a closed-form 3x3 eigen solver,
//! direct axes for single triangles, and a one-pass sizing around each node's vertices, done in
//! parallel over the nodes.
//!
//! Rationale.
//! - Moments: a triangle `(p, q, r)` of area `A` and centroid `m` contributes `A`, `A m` and
//!   `A/12 (9 m m^T + p p^T + q q^T + r r^T)` (coordinates relative to one origin for the whole
//!   tree, in `f64`); a node's sums are its children's sums, so the covariance `S / A - mu mu^T`
//!   of every node costs O(1) once the leaves are summed: O(n) for the tree instead of
//!   O(n log n).
//! - Axes only affect how tight a box is, never whether it contains its triangles: every box is
//!   sized afterwards around points it must contain, with the sizing of `colldet_geom`'s
//!   [`Obb`] fitting (Cramer coordinates for the `f32` axes, a second pass around the rounded
//!   `f32` centre, a slack of a few `f64` ulps, extents rounded up).
//! - Sizing every node around all its vertices is O(n log n) but only a few multiply-adds per
//!   vertex (sizing around the children's box corners instead, O(1) per node, made the upper
//!   boxes so loose that close-proximity queries did several times more volume tests). Whole
//!   aligned blocks of 8 and 64 consecutive triangles contribute their distinct vertices once
//!   (on a closed mesh, neighbouring triangles share most of their corners).
//! - One post-order pass per subtree sums a node's moments from its children's (held on a
//!   stack, no per-node array) and sizes its box and its axes-error bound at once; the subtrees
//!   of the top levels run in parallel. Every value depends on the node's subtree and the
//!   vertices only, never on the thread count.

use super::BvhNode;
use super::obb_pair::axes_error;
use crate::NarrowError;
use colldet_geom::math::{Matrix3, MatrixD, Point, Real, Vector, VectorD, to_f64};
use colldet_geom::{GeomError, Obb};

/// Sizing slack in units of `f64::EPSILON` times the point's coordinate scale.
pub(super) const FIT_SLACK: f64 = 16.0;

/// Additive area moments of a set of triangles, relative to the tree's origin.
#[derive(Clone, Copy, Default)]
pub(super) struct Moments {
    area: f64,
    first: VectorD,
    /// Upper triangle of the second moment: xx, yy, zz, xy, xz, yz.
    second: [f64; 6],
}

impl Moments {
    pub(super) fn add(&mut self, o: &Moments) {
        self.area += o.area;
        self.first += o.first;
        for (x, y) in self.second.iter_mut().zip(&o.second) {
            *x += y;
        }
    }

    pub(super) fn add_triangle(&mut self, p: &VectorD, q: &VectorD, r: &VectorD) {
        let a = 0.5 * (q - p).cross(&(r - p)).norm();
        let m = (p + q + r) / 3.0;
        self.area += a;
        self.first += m * a;
        let w = a / 12.0;
        let mut acc = [0.0; 6];
        for (v, s) in [(m, 9.0), (*p, 1.0), (*q, 1.0), (*r, 1.0)] {
            acc[0] += s * v.x * v.x;
            acc[1] += s * v.y * v.y;
            acc[2] += s * v.z * v.z;
            acc[3] += s * v.x * v.y;
            acc[4] += s * v.x * v.z;
            acc[5] += s * v.y * v.z;
        }
        for (x, y) in self.second.iter_mut().zip(&acc) {
            *x += w * y;
        }
    }

    /// The covariance, `None` for zero (or non-finite) area.
    fn covariance(&self) -> Option<MatrixD> {
        if !(self.area > 0.0 && self.area.is_finite()) {
            return None;
        }
        let inv = 1.0 / self.area;
        let mu = self.first * inv;
        let s = self.second.map(|x| x * inv);
        let c = MatrixD::new(
            s[0] - mu.x * mu.x,
            s[3] - mu.x * mu.y,
            s[4] - mu.x * mu.z,
            s[3] - mu.x * mu.y,
            s[1] - mu.y * mu.y,
            s[5] - mu.y * mu.z,
            s[4] - mu.x * mu.z,
            s[5] - mu.y * mu.z,
            s[2] - mu.z * mu.z,
        );
        c.iter().all(|x| x.is_finite()).then_some(c)
    }
}

/// An eigenvector of the symmetric `a` for the eigenvalue `lambda`: the largest cross product of
/// two rows of `a - lambda I` (they span the orthogonal complement). `None` when all vanish.
fn eigenvector(a: &MatrixD, lambda: f64) -> Option<VectorD> {
    let row = |i: usize| {
        let mut r = VectorD::new(a[(i, 0)], a[(i, 1)], a[(i, 2)]);
        r[i] -= lambda;
        r
    };
    let (r0, r1, r2) = (row(0), row(1), row(2));
    let mut best = r0.cross(&r1);
    let mut best_norm = best.norm_squared();
    for c in [r0.cross(&r2), r1.cross(&r2)] {
        let n = c.norm_squared();
        if n > best_norm {
            (best, best_norm) = (c, n);
        }
    }
    (best_norm > 0.0 && best_norm.is_finite()).then(|| best * (1.0 / best_norm.sqrt()))
}

/// Eigenvalues of a symmetric 3x3 matrix, largest first, by the trigonometric closed form.
fn eigenvalues(a: &MatrixD) -> [f64; 3] {
    let (a01, a02, a12) = (a[(0, 1)], a[(0, 2)], a[(1, 2)]);
    let off = a01 * a01 + a02 * a02 + a12 * a12;
    let q = (a[(0, 0)] + a[(1, 1)] + a[(2, 2)]) / 3.0;
    let (d0, d1, d2) = (a[(0, 0)] - q, a[(1, 1)] - q, a[(2, 2)] - q);
    let p2 = d0 * d0 + d1 * d1 + d2 * d2 + 2.0 * off;
    if p2 <= 0.0 {
        return [q; 3];
    }
    let p = (p2 * (1.0 / 6.0)).sqrt();
    // det((A - qI) / p) / 2, clamped against rounding.
    let det =
        d0 * (d1 * d2 - a12 * a12) - a01 * (a01 * d2 - a12 * a02) + a02 * (a01 * a12 - d1 * a02);
    let r = (det / (2.0 * p * p * p)).clamp(-1.0, 1.0);
    let (sin, cos) = (r.acos() / 3.0).sin_cos();
    let l1 = q + 2.0 * p * cos;
    // 2 cos(phi + 2 pi / 3) = -cos(phi) - sqrt(3) sin(phi).
    let l3 = q - p * (cos + 3f64.sqrt() * sin);
    [l1, 3.0 * q - l1 - l3, l3]
}

/// RAPID's candidate split directions for a node with moments `m`: the principal axes, largest
/// variance first (the coordinate axes when the area is zero).
pub(super) fn split_directions(m: &Moments) -> [VectorD; 3] {
    let axes = m
        .covariance()
        .map_or_else(MatrixD::identity, |c| principal_axes(&c));
    [0, 1, 2].map(|k| axes.column(k).into_owned())
}

/// Orthonormal right-handed axes from a covariance: eigenvectors, largest variance first. The
/// eigenvector of the better separated extreme eigenvalue is computed first; the frame is
/// completed in the plane orthogonal to it, where any basis serves when the other two
/// eigenvalues (nearly) coincide.
fn principal_axes(cov: &MatrixD) -> MatrixD {
    let scale = cov.amax();
    if !(scale > 0.0 && scale.is_finite()) {
        return MatrixD::identity();
    }
    let a = cov * (1.0 / scale);
    let [l1, l2, l3] = eigenvalues(&a);
    if l1 - l3 <= 1e-12 {
        return MatrixD::identity();
    }
    if l1 - l2 >= l2 - l3 {
        let Some(v1) = eigenvector(&a, l1) else {
            return MatrixD::identity();
        };
        let v3 = eigenvector(&a, l3).unwrap_or_else(VectorD::zeros);
        orthonormal_frame(&v1, &v3.cross(&v1))
    } else {
        let Some(v3) = eigenvector(&a, l3) else {
            return MatrixD::identity();
        };
        let v1 = eigenvector(&a, l1).unwrap_or_else(VectorD::zeros);
        let e0 = v1 - v3 * v3.dot(&v1);
        let e0 = if e0.norm_squared() > 1e-6 {
            e0
        } else {
            v3.cross(&if v3.x.abs() < 0.6 {
                VectorD::x()
            } else {
                VectorD::y()
            })
        };
        orthonormal_frame(&e0, &v3.cross(&e0))
    }
}

/// The right-handed orthonormal frame whose first axis is along `v0` and whose second lies in
/// the plane of `v0` and `v1` (any perpendicular when `v1` is parallel); identity when `v0` is
/// zero.
fn orthonormal_frame(v0: &VectorD, v1: &VectorD) -> MatrixD {
    let n0 = v0.norm();
    if n0.is_nan() || n0 <= 1e-300 {
        return MatrixD::identity();
    }
    let e0 = v0 * (1.0 / n0);
    let w = v1 - e0 * e0.dot(v1);
    let w2 = w.norm_squared();
    let w = if w2 > 1e-24 * v1.norm_squared() {
        w
    } else {
        let other = if e0.x.abs() < 0.6 {
            VectorD::x()
        } else {
            VectorD::y()
        };
        other - e0 * e0.dot(&other)
    };
    let e1 = w * (1.0 / w.norm());
    // Unit up to rounding (`e0`, `e1` are orthonormal); the stored axes' error is measured.
    let e2 = e0.cross(&e1);
    let e1 = e2.cross(&e0);
    MatrixD::from_columns(&[e0, e1, e2])
}

/// Axes of a single triangle: its longest edge, the normal, and their cross product.
fn triangle_axes(p: &VectorD, q: &VectorD, r: &VectorD) -> MatrixD {
    let edges = [q - p, r - q, p - r];
    let longest = edges
        .iter()
        .max_by(|a, b| a.norm_squared().total_cmp(&b.norm_squared()))
        .copied()
        .unwrap_or_else(VectorD::zeros);
    let normal = edges[0].cross(&edges[1]);
    // Second axis in the triangle's plane: perpendicular to the longest edge and the normal.
    orthonormal_frame(&longest, &normal.cross(&longest))
}

/// A box with the given axes (rounded to `f32`) around the vertices listed in `parts` (exact
/// `f32` coordinates widened to `f64`), containing every one after rounding. One pass: the
/// extents about the rounded centre follow from the coordinate range, widened by a slack that
/// bounds every rounding error involved (the coordinates, the centre's, and those of
/// [`Obb::contains_point`]'s own evaluation). The slack scales with the points' reach from the
/// first one, `max |p - p0|_1`, bounded through the box coordinates: `p - p0 = A u` up to
/// rounding, so `|p - p0|_1 <= sum_k |a_k|_1 max(|lo_k|, |hi_k|)` (times `1 + 1e-6`, far above
/// the rounding of `u`).
fn size_box(axes64: &MatrixD, vertices: &[Point], parts: [&[u32]; 5]) -> Obb {
    let axes: Matrix3 = axes64.cast();
    let a: MatrixD = axes.cast();
    let to_box = box_coordinates(&a);
    let origin = parts
        .iter()
        .find_map(|p| p.first())
        .map_or_else(VectorD::zeros, |&i| to_f64(&vertices[i as usize]).coords);
    // Plain arrays and comparisons (every coordinate is finite): this loop is most of the
    // fitting's time.
    let rows: [[f64; 3]; 3] =
        std::array::from_fn(|k| [to_box[(k, 0)], to_box[(k, 1)], to_box[(k, 2)]]);
    let mut lo = [0.0f64; 3];
    let mut hi = [0.0f64; 3];
    for part in parts {
        for &i in part {
            let p = &vertices[i as usize];
            let d = [
                f64::from(p.x) - origin.x,
                f64::from(p.y) - origin.y,
                f64::from(p.z) - origin.z,
            ];
            for k in 0..3 {
                let u = rows[k][0] * d[0] + rows[k][1] * d[1] + rows[k][2] * d[2];
                lo[k] = if u < lo[k] { u } else { lo[k] };
                hi[k] = if u > hi[k] { u } else { hi[k] };
            }
        }
    }
    let (lo, hi) = (VectorD::from(lo), VectorD::from(hi));
    let center64 = origin + a * ((lo + hi) * 0.5);
    let center = Point::new(center64.x as Real, center64.y as Real, center64.z as Real);
    let dc = to_f64(&center).coords - origin;
    let uc = to_box * dc;
    let reach = (0..3)
        .map(|k| a.column(k).abs().sum() * lo[k].abs().max(hi[k].abs()))
        .sum::<f64>()
        * (1.0 + 1e-6);
    let slack = 2.0 * FIT_SLACK * f64::EPSILON * (reach + dc.abs().sum());
    let h = (hi - uc).sup(&(uc - lo)).add_scalar(slack);
    Obb::new(
        center,
        axes,
        Vector::new(round_up(h.x), round_up(h.y), round_up(h.z)),
    )
}

/// The matrix taking a vector to its coordinates along the (not exactly orthonormal) axes `a`
/// (columns), by Cramer's rule: `a^-1`, as cofactors over the determinant.
pub(super) fn box_coordinates(a: &MatrixD) -> MatrixD {
    let (a0, a1, a2) = (a.column(0), a.column(1), a.column(2));
    let normals = MatrixD::from_columns(&[a1.cross(&a2), a2.cross(&a0), a0.cross(&a1)]);
    let det = a0.dot(&normals.column(0));
    normals.transpose() * (1.0 / det)
}

/// The smallest `f32` not below `x`.
pub(super) fn round_up(x: f64) -> f32 {
    let y = x as f32;
    if f64::from(y) < x { y.next_up() } else { y }
}

/// Subtrees of at most this many nodes are fitted on one thread.
const PARALLEL_CHUNK: usize = 4096;
/// Parallel recursion stops at this depth (2^5 tasks).
const PARALLEL_MAX_DEPTH: usize = 5;

/// Fits every node of a tree whose children are stored after their parents (see the module
/// rationale); returns the largest [`axes_error`] of the fitted boxes. `vertices` must be finite
/// and `triangles` in range (checked by the build). One post-order pass per subtree sums each
/// node's moments from its children's (kept on a stack, not per node) and sizes its box as soon
/// as they are known. Trees laid out as the build lays them out (an internal node's children
/// `c`, `c + 1` directly followed by `c`'s descendants, then `c + 1`'s) are fitted by subtrees
/// in parallel; every value depends on the node's subtree only, never on the thread count.
pub(super) fn fit_obb_tree(
    nodes: &mut [BvhNode<Obb>],
    vertices: &[Point],
    triangles: &[[u32; 3]],
) -> Result<f64, NarrowError> {
    let Some(first) = triangles.first() else {
        return Err(GeomError::NoFaces.into());
    };
    let parallel = nodes.len() > PARALLEL_CHUNK;
    let (small, large) = if parallel {
        rayon::join(
            || BlockVertices::new(triangles, vertices.len(), SMALL_BLOCK),
            || BlockVertices::new(triangles, vertices.len(), LARGE_BLOCK),
        )
    } else {
        (
            BlockVertices::new(triangles, vertices.len(), SMALL_BLOCK),
            BlockVertices::new(triangles, vertices.len(), LARGE_BLOCK),
        )
    };
    let fitter = TreeFitter {
        vertices,
        triangles,
        origin: to_f64(&vertices[first[0] as usize]).coords,
        small: &small,
        large: &large,
    };
    let (root, rest) = nodes.split_first_mut().ok_or(GeomError::NoFaces)?;
    let fitted = if parallel {
        fitter.subtree(root, rest, 1, 0)
    } else {
        None
    };
    let fitted = match fitted {
        Some(f) => f,
        None => fitter
            .whole_tree(root, rest)
            .ok_or(NarrowError::BrokenInvariant {
                what: "child index not after its parent or out of range",
                index: 0,
            })?,
    };
    Ok(fitted.error)
}

/// A fitted subtree: the moments and triangle range of its root, and the largest axes error of
/// its boxes.
struct Fitted {
    moments: Moments,
    start: usize,
    end: usize,
    error: f64,
}

/// What fitting a node needs: the tree's geometry and the block vertex lists.
struct TreeFitter<'a> {
    vertices: &'a [Point],
    triangles: &'a [[u32; 3]],
    /// Origin of the moments: the first triangle's first vertex.
    origin: VectorD,
    small: &'a BlockVertices,
    large: &'a BlockVertices,
}

impl TreeFitter<'_> {
    /// Vertex `i` relative to the origin.
    #[inline]
    fn local(&self, i: u32) -> VectorD {
        to_f64(&self.vertices[i as usize]).coords - self.origin
    }

    /// Fits a leaf: its moments from its triangles, then its box.
    fn leaf(&self, node: &mut BvhNode<Obb>) -> Fitted {
        let (start, end) = (node.first as usize, (node.first + node.count) as usize);
        let mut m = Moments::default();
        for t in &self.triangles[start..end] {
            m.add_triangle(&self.local(t[0]), &self.local(t[1]), &self.local(t[2]));
        }
        let error = self.size(node, &m, start, end);
        Fitted {
            moments: m,
            start,
            end,
            error,
        }
    }

    /// Fits an internal node from its children's fits.
    fn parent(&self, node: &mut BvhNode<Obb>, a: &Fitted, b: &Fitted) -> Fitted {
        let mut m = a.moments;
        m.add(&b.moments);
        let error = self
            .size(node, &m, a.start, b.end)
            .max(a.error)
            .max(b.error);
        Fitted {
            moments: m,
            start: a.start,
            end: b.end,
            error,
        }
    }

    /// The subtree of `root` when its descendants are exactly `desc` (global indices
    /// `base ..`), in the build's layout; large subtrees fit their halves in parallel. `None`
    /// when the layout differs (nothing is then guaranteed about the volumes).
    fn subtree(
        &self,
        root: &mut BvhNode<Obb>,
        desc: &mut [BvhNode<Obb>],
        base: usize,
        depth: usize,
    ) -> Option<Fitted> {
        let Some([c, _]) = root.children() else {
            return Some(self.leaf(root));
        };
        if desc.len() <= PARALLEL_CHUNK || depth >= PARALLEL_MAX_DEPTH {
            let mut stack = Vec::new();
            let mut values = Vec::new();
            let a = self.post_order(desc, base, c as usize, &mut stack, &mut values)?;
            let b = self.post_order(desc, base, c as usize + 1, &mut stack, &mut values)?;
            return Some(self.parent(root, &a, &b));
        }
        if c as usize != base || desc.len() < 2 {
            return None;
        }
        let (pair, rest) = desc.split_at_mut(2);
        let (left, right) = pair.split_at_mut(1);
        // `c + 1`'s descendants start at its first child; `c`'s fill the gap before them.
        let split = match right[0].children() {
            Some([d, _]) => (d as usize).checked_sub(base + 2)?,
            None => rest.len(),
        };
        if split > rest.len() {
            return None;
        }
        let (left_desc, right_desc) = rest.split_at_mut(split);
        let (a, b) = rayon::join(
            || self.subtree(&mut left[0], left_desc, base + 2, depth + 1),
            || self.subtree(&mut right[0], right_desc, base + 2 + split, depth + 1),
        );
        Some(self.parent(root, &a?, &b?))
    }

    /// The whole tree on one thread, for any layout with children after their parents.
    fn whole_tree(&self, root: &mut BvhNode<Obb>, rest: &mut [BvhNode<Obb>]) -> Option<Fitted> {
        let Some([c, _]) = root.children() else {
            return Some(self.leaf(root));
        };
        let mut stack = Vec::new();
        let mut values = Vec::new();
        let a = self.post_order(rest, 1, c as usize, &mut stack, &mut values)?;
        let b = self.post_order(rest, 1, c as usize + 1, &mut stack, &mut values)?;
        Some(self.parent(root, &a, &b))
    }

    /// Fits node `top` and its descendants, all in `desc` (global indices `base ..`), children
    /// before parents; `None` when a child lies outside `desc`.
    fn post_order(
        &self,
        desc: &mut [BvhNode<Obb>],
        base: usize,
        top: usize,
        stack: &mut Vec<(usize, bool)>,
        values: &mut Vec<Fitted>,
    ) -> Option<Fitted> {
        stack.push((top, false));
        while let Some((n, expanded)) = stack.pop() {
            let node = desc.get_mut(n.checked_sub(base)?)?;
            match node.children() {
                None => values.push(self.leaf(node)),
                Some([a, b]) if !expanded => {
                    stack.push((n, true));
                    stack.push((b as usize, false));
                    stack.push((a as usize, false));
                }
                Some(_) => {
                    let b = values.pop()?;
                    let a = values.pop()?;
                    values.push(self.parent(node, &a, &b));
                }
            }
        }
        values.pop()
    }

    /// Sizes `node`'s box around triangles `start..end` with the axes of moments `m`; returns
    /// the box's [`axes_error`].
    fn size(&self, node: &mut BvhNode<Obb>, m: &Moments, start: usize, end: usize) -> f64 {
        let (triangles, vertices) = (self.triangles, self.vertices);
        let tris = &triangles[start..end];
        let axes = if tris.len() == 1 && m.area > 0.0 {
            let t = tris[0];
            triangle_axes(&self.local(t[0]), &self.local(t[1]), &self.local(t[2]))
        } else {
            axes_or_points(m, tris, &|i| self.local(i))
        };
        // The node's vertices as: the triangles before the first whole small block, whole
        // small blocks up to the first whole large block, whole large blocks, whole small
        // blocks, the remaining triangles; each block by its distinct vertices. The split
        // depends on the range only, so build and refit size around the same first point.
        let (s, e) = (start, end);
        let (s1, e1) = (s.div_ceil(SMALL_BLOCK), e / SMALL_BLOCK);
        let volume = if s1 >= e1 {
            size_box(&axes, vertices, [tris.as_flattened(), &[], &[], &[], &[]])
        } else {
            let (s2, e2) = (s.div_ceil(LARGE_BLOCK), e / LARGE_BLOCK);
            let ratio = LARGE_BLOCK / SMALL_BLOCK;
            let (mid_s, mid_e) = if s2 < e2 {
                (s2 * ratio, e2 * ratio)
            } else {
                (e1, e1)
            };
            size_box(
                &axes,
                vertices,
                [
                    triangles[s..s1 * SMALL_BLOCK].as_flattened(),
                    self.small.vertices(s1, mid_s),
                    if s2 < e2 {
                        self.large.vertices(s2, e2)
                    } else {
                        &[]
                    },
                    self.small.vertices(mid_e, e1),
                    triangles[e1 * SMALL_BLOCK..e].as_flattened(),
                ],
            )
        };
        node.volume = volume;
        axes_error(&volume.axes)
    }
}

/// Triangles per small block of [`BlockVertices`].
const SMALL_BLOCK: usize = 8;
/// Triangles per large block (a multiple of [`SMALL_BLOCK`]).
const LARGE_BLOCK: usize = 64;

/// The distinct vertices of each block of `size` consecutive triangles (in first-use order), so
/// sizing a node that spans whole blocks visits each of their vertices once instead of once
/// per triangle using it (about six times on a closed mesh).
struct BlockVertices {
    /// Block `b`'s vertices are `vertices[offsets[b]..offsets[b + 1]]`.
    offsets: Vec<u32>,
    vertices: Vec<u32>,
}

impl BlockVertices {
    fn new(triangles: &[[u32; 3]], vertex_count: usize, size: usize) -> Self {
        let mut last_block = vec![u32::MAX; vertex_count];
        let mut offsets = Vec::with_capacity(triangles.len() / size + 2);
        let mut vertices = Vec::with_capacity(triangles.len());
        offsets.push(0);
        for (b, block) in triangles.chunks(size).enumerate() {
            for &i in block.iter().flatten() {
                let seen = &mut last_block[i as usize];
                if *seen != b as u32 {
                    *seen = b as u32;
                    vertices.push(i);
                }
            }
            offsets.push(vertices.len() as u32);
        }
        Self { offsets, vertices }
    }

    /// The distinct vertices of blocks `first..end`, block by block.
    fn vertices(&self, first: usize, end: usize) -> &[u32] {
        &self.vertices[self.offsets[first] as usize..self.offsets[end] as usize]
    }
}

/// Principal axes from the moments, or from the vertices' covariance when the area is zero.
fn axes_or_points(m: &Moments, triangles: &[[u32; 3]], local: &impl Fn(u32) -> VectorD) -> MatrixD {
    if let Some(cov) = m.covariance() {
        return principal_axes(&cov);
    }
    let points = || triangles.iter().flatten().map(|&i| local(i));
    let n = (triangles.len() * 3) as f64;
    let mean = points().sum::<VectorD>() / n;
    let cov = points()
        .map(|p| (p - mean) * (p - mean).transpose())
        .sum::<MatrixD>()
        / n;
    principal_axes(&cov)
}

#[cfg(test)]
mod tests {
    use super::*;
    use nalgebra::UnitQuaternion;

    /// `R diag(l) R^T` for seeded rotations: the axes are `R`'s columns up to sign, in the order
    /// of decreasing `l`, including nearly and exactly repeated eigenvalues (then only the
    /// separated axis is determined) and tiny scales.
    #[test]
    fn principal_axes_recover_known_eigenvectors() {
        let mut state = 0x5eed_u64;
        let mut next = || {
            state = state
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            (state >> 11) as f64 / (1u64 << 53) as f64 * 2.0 - 1.0
        };
        let cases = [
            [3.0, 2.0, 1.0],
            [1.0, 0.5, 0.1],
            [5.0, 5.0 - 1e-9, 1.0],
            [1.0, 0.2, 0.2],
            [2.0, 2.0, 1.0],
            [1e-20, 3e-21, 1e-22],
        ];
        for l in cases {
            for _ in 0..200 {
                let r = UnitQuaternion::from_euler_angles(3.0 * next(), 3.0 * next(), 3.0 * next())
                    .to_rotation_matrix()
                    .into_inner();
                let cov = r * MatrixD::from_diagonal(&VectorD::from(l)) * r.transpose();
                let axes = principal_axes(&cov);
                // Orthonormal and right-handed.
                assert!((axes.transpose() * axes - MatrixD::identity()).amax() < 1e-9);
                assert!((axes.determinant() - 1.0).abs() < 1e-9);
                for k in 0..3 {
                    let distinct = (0..3).all(|j| j == k || (l[j] - l[k]).abs() > 1e-3 * l[0]);
                    if distinct {
                        let dot = axes.column(k).dot(&r.column(k)).abs();
                        assert!(dot > 1.0 - 1e-9, "{l:?} axis {k}: {dot}");
                    }
                }
            }
        }
    }

    /// Fitted boxes contain their points, in every orientation, near and far from the origin.
    #[test]
    fn sized_boxes_contain_their_points() {
        let mut state = 0xb0c5_u64;
        let mut next = || {
            state = state
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            (state >> 11) as f64 / (1u64 << 53) as f64 * 2.0 - 1.0
        };
        for far in [0.0, 1e3, 1e6] {
            for _ in 0..100 {
                let points: Vec<Point> = (0..9)
                    .map(|_| {
                        Point::new(
                            (far + next()) as f32,
                            (far * 0.5 + next() * 0.1) as f32,
                            next() as f32,
                        )
                    })
                    .collect();
                let axes = UnitQuaternion::from_euler_angles(3.0 * next(), 3.0 * next(), next())
                    .to_rotation_matrix()
                    .into_inner();
                let indices: Vec<u32> = (0..points.len() as u32).collect();
                let b = size_box(&axes, &points, [&indices, &[], &[], &[], &[]]);
                assert!(points.iter().all(|p| b.contains_point(p)), "{b:?}");
            }
        }
    }
}
