//! Exact 3D convex hulls of point sets.
//!
//! [`convex_hull`] runs quickhull with every visibility decision made by the exact
//! [`crate::predicates::orient3d`] on the `f32` inputs, so the result is exactly convex: every
//! input point is on or behind the plane of every hull triangle, with no tolerance, at any scale
//! and offset. Points exactly in the plane of a face are not outside it, and the returned vertices
//! are exactly the extreme points of the input (each once, whatever the duplicates).
//!
//! Pipeline (one file each): a starting tetrahedron (`initial_simplex`), incremental quickhull
//! (`quickhull`, with filtered plane tests in `face_plane`), then an exact check that every
//! vertex is a corner (`extreme_vertices`). Exact coplanarity can leave a non-corner vertex
//! inside a facet or an edge; then the hull is rebuilt from the corners only, which cannot happen
//! twice because every input of the rebuild is a corner. [`convex_hull_polygons`] also merges
//! coplanar triangles into facets (`polygons`).

mod extreme_vertices;
mod face_plane;
mod initial_simplex;
mod polygons;
mod quickhull;
#[cfg(test)]
mod tests;

use crate::error::GeomError;
use crate::math::{Point, PointD, is_finite_point, to_f64};
use crate::mesh_data::{FaceList, MeshData};

/// The convex hull of a point set, as a closed convex mesh in the points' frame.
#[derive(Clone, Debug, PartialEq)]
pub struct ConvexHull {
    /// The hull's corners (the extreme points of the input, each once, in increasing input
    /// order) and its faces, counter-clockwise seen from outside (outward normals). Faces are
    /// triangles from [`convex_hull`] and convex polygons (whole facets) from
    /// [`convex_hull_polygons`].
    pub mesh: MeshData,
    /// `input_index[i]` is the index in the input slice of hull vertex `i`; strictly increasing.
    /// When the input repeats a corner, the index of one of its copies is given.
    pub input_index: Vec<u32>,
}

/// The convex hull of `points` as a triangle mesh.
///
/// Exactness: for every hull triangle `(a, b, c)` and every input point `q`,
/// `side_of_plane(a, b, c, q) <= 0`; the vertices are exactly the extreme points of the input.
/// Triangles of one facet are coplanar (exactly); use [`convex_hull_polygons`] for facets.
///
/// Cost: typically `O(n log n)` for `n` points (quickhull; `O(n^2)` in contrived worst cases),
/// memory `O(n)`.
///
/// # Errors
/// - [`GeomError::NonFiniteCoordinate`] naming the first point with a NaN or infinite coordinate.
/// - [`GeomError::DegenerateHull`] when the points span no volume: `shape` is `"coincident"`
///   (all equal, or none), `"collinear"` or `"coplanar"` (which includes any 3 or fewer points
///   not collinear).
/// - [`GeomError::TooManyPoints`] for more than `u32::MAX - 1` points.
/// - [`GeomError::HullInvariant`] only on an internal bug (reported instead of panicking).
pub fn convex_hull(points: &[Point]) -> Result<ConvexHull, GeomError> {
    let max = (u32::MAX - 1) as usize;
    if points.len() > max {
        return Err(GeomError::TooManyPoints {
            points: points.len(),
            max,
        });
    }
    if let Some(vertex) = points.iter().position(|p| !is_finite_point(p)) {
        return Err(GeomError::NonFiniteCoordinate { vertex });
    }
    let wide: Vec<PointD> = points.iter().map(to_f64).collect();
    let simplex = initial_simplex::initial_simplex(points, &wide).map_err(|shape| {
        GeomError::DegenerateHull {
            points: points.len(),
            shape: shape.name(),
        }
    })?;
    let first = hull_with_flags(&wide, simplex)?;
    if first.extreme.iter().all(|&e| e) {
        return Ok(first.into_hull(points, None));
    }

    // Rebuild from the corners only: every vertex of that hull is a corner.
    let corners: Vec<u32> = first
        .used
        .iter()
        .zip(&first.extreme)
        .filter(|&(_, &e)| e)
        .map(|(&i, _)| i)
        .collect();
    let corner_points: Vec<Point> = corners.iter().map(|&i| points[i as usize]).collect();
    let corner_wide: Vec<PointD> = corners.iter().map(|&i| wide[i as usize]).collect();
    let broken = GeomError::HullInvariant {
        point: corners.first().map_or(0, |&i| i as usize),
    };
    let simplex =
        initial_simplex::initial_simplex(&corner_points, &corner_wide).map_err(|_| broken)?;
    let second = hull_with_flags(&corner_wide, simplex)?;
    if let Some(k) = second.extreme.iter().position(|&e| !e) {
        return Err(GeomError::HullInvariant {
            point: corners[second.used[k] as usize] as usize,
        });
    }
    Ok(second.into_hull(points, Some(&corners)))
}

/// The convex hull of `points` with each facet as one convex polygon (coplanar hull triangles
/// merged by the exact predicate), counter-clockwise seen from outside. Vertices and
/// `input_index` are as in [`convex_hull`]; no polygon has a vertex in the middle of an edge.
///
/// # Errors
/// As [`convex_hull`].
pub fn convex_hull_polygons(points: &[Point]) -> Result<ConvexHull, GeomError> {
    let hull = convex_hull(points)?;
    let wide: Vec<PointD> = hull.mesh.vertices.iter().map(to_f64).collect();
    let triangles: Vec<[u32; 3]> = hull.mesh.faces.iter().map(|f| [f[0], f[1], f[2]]).collect();
    let faces = polygons::merge_coplanar(&wide, &triangles).map_err(|e| match e {
        GeomError::HullInvariant { point } => GeomError::HullInvariant {
            point: hull.input_index.get(point).map_or(point, |&i| i as usize),
        },
        other => other,
    })?;
    Ok(ConvexHull {
        mesh: MeshData::new(hull.mesh.vertices, faces),
        input_index: hull.input_index,
    })
}

/// One quickhull run: the used points and local triangles, plus which used points are corners.
struct FlaggedHull {
    /// Indices (into the slice the run was given) of the points the triangles use, ascending.
    used: Vec<u32>,
    /// Triangles over `0..used.len()`.
    triangles: Vec<[u32; 3]>,
    /// `extreme[i]`: `used[i]` is a corner of the hull.
    extreme: Vec<bool>,
}

impl FlaggedHull {
    /// The hull in the caller's terms; `subset` maps run indices to input indices when the run
    /// was given a subset of the input.
    fn into_hull(self, points: &[Point], subset: Option<&[u32]>) -> ConvexHull {
        let input_index: Vec<u32> = match subset {
            Some(map) => self.used.iter().map(|&i| map[i as usize]).collect(),
            None => self.used,
        };
        let vertices = input_index.iter().map(|&i| points[i as usize]).collect();
        ConvexHull {
            mesh: MeshData::new(vertices, FaceList::from_triangles(&self.triangles)),
            input_index,
        }
    }
}

fn hull_with_flags(wide: &[PointD], simplex: [u32; 4]) -> Result<FlaggedHull, GeomError> {
    let mut triangles = quickhull::build(wide, simplex)?;
    // Compact to the used points, numbered in increasing input order.
    let mut local = vec![u32::MAX; wide.len()];
    for t in &triangles {
        for &v in t {
            local[v as usize] = 0;
        }
    }
    let mut used = Vec::new();
    for (i, slot) in local.iter_mut().enumerate() {
        if *slot == 0 {
            *slot = used.len() as u32;
            used.push(i as u32);
        }
    }
    for t in &mut triangles {
        *t = t.map(|v| local[v as usize]);
    }
    let used_wide: Vec<PointD> = used.iter().map(|&i| wide[i as usize]).collect();
    let extreme = extreme_vertices::extreme_flags(&used_wide, &triangles);
    Ok(FlaggedHull {
        used,
        triangles,
        extreme,
    })
}
