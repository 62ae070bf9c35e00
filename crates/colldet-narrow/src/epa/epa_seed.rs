//! Turning GJK's final simplex into EPA's starting tetrahedron.
//!
//! Rationale: GJK hands over a simplex that holds the origin (up to rounding). A smaller simplex
//! (origin on a CSO vertex, edge or triangle, as in exact face-to-face contact) is grown one
//! dimension at a time with support points in directions orthogonal to it; adding points never
//! removes the origin from the hull, so the tetrahedron still holds it. When no direction leaves
//! the simplex's affine hull by more than rounding noise, `A - B` itself is flat (coplanar plates,
//! collinear rods): every point of it is a boundary point, and the depth is the (tiny) thickness
//! along the normal of that flat hull.

use super::epa_workspace::EpaWorkspace;
use crate::cso::{CsoPoint, PairFrame};
use crate::gjk::simplex::{Simplex, volume6};
use crate::{NarrowError, SupportMap};
use colldet_geom::math::{SIGNED_AXES, VectorD};

/// What seeding produced.
pub(crate) enum Seed {
    /// A tetrahedron holding the origin is in the workspace.
    Polytope,
    /// `A - B` is flat: depth and outward normal of its thickness.
    Flat { depth: f64, normal: VectorD },
}

fn any_unit_orthogonal(e: &VectorD) -> VectorD {
    let a = e.abs();
    let axis = if a.x <= a.y && a.x <= a.z {
        VectorD::x()
    } else if a.y <= a.z {
        VectorD::y()
    } else {
        VectorD::z()
    };
    e.cross(&axis).normalize()
}

/// Grows `simplex` (1 to 4 points holding the origin) into a tetrahedron in `ws`.
pub(crate) fn seed_polytope<S1, S2>(
    ws: &mut EpaWorkspace,
    s1: &S1,
    s2: &S2,
    frame: &PairFrame,
    simplex: &[CsoPoint],
    hints: &mut [u32; 2],
) -> Result<Seed, NarrowError>
where
    S1: SupportMap + ?Sized,
    S2: SupportMap + ?Sized,
{
    let mut pts = [CsoPoint::ZERO; 4];
    let mut n = simplex.len().min(4);
    pts[..n].copy_from_slice(&simplex[..n]);
    if n == 4 && volume6(&pts[0].w, &pts[1].w, &pts[2].w, &pts[3].w) == 0.0 {
        // Flat tetrahedron: keep the face that holds the origin's closest point.
        let mut flat = Simplex::new(pts[0]);
        for p in &pts[1..4] {
            flat.push(*p);
        }
        flat.reduce();
        n = flat.len();
        pts[..n].copy_from_slice(flat.points());
    }
    let noise = frame.noise;
    loop {
        match n {
            0 | 1 => {
                let a = pts[0].w;
                let mut best = (0.0, CsoPoint::ZERO);
                for dir in SIGNED_AXES {
                    let w = frame.support(s1, s2, &dir, hints)?;
                    let d = (w.w - a).norm();
                    if d > best.0 {
                        best = (d, w);
                    }
                }
                if best.0 <= noise {
                    return Ok(Seed::Flat {
                        depth: 0.0,
                        normal: VectorD::x(),
                    });
                }
                pts[1] = best.1;
                n = 2;
            }
            2 => {
                let a = pts[0].w;
                let e = pts[1].w - a;
                let en = e.norm();
                if en == 0.0 {
                    n = 1;
                    continue;
                }
                let e = e / en;
                let u1 = any_unit_orthogonal(&e);
                let u2 = e.cross(&u1);
                let mut best = (0.0, CsoPoint::ZERO);
                for dir in [u1, -u1, u2, -u2] {
                    let w = frame.support(s1, s2, &dir, hints)?;
                    let r = w.w - a;
                    let d = (r - e * e.dot(&r)).norm();
                    if d > best.0 {
                        best = (d, w);
                    }
                }
                if best.0 <= noise {
                    return Ok(Seed::Flat {
                        depth: 0.0,
                        normal: u1,
                    });
                }
                pts[2] = best.1;
                n = 3;
            }
            3 => {
                let a = pts[0].w;
                let m = (pts[1].w - a).cross(&(pts[2].w - a));
                let mn = m.norm();
                if mn == 0.0 || !mn.is_finite() {
                    // Collinear triangle: keep its longest edge.
                    let l01 = (pts[1].w - a).norm_squared();
                    let l02 = (pts[2].w - a).norm_squared();
                    let l12 = (pts[2].w - pts[1].w).norm_squared();
                    if l02 >= l01 && l02 >= l12 {
                        pts[1] = pts[2];
                    } else if l12 > l01 {
                        pts[0] = pts[2];
                    }
                    n = 2;
                    continue;
                }
                let m = m / mn;
                let up = frame.support(s1, s2, &m, hints)?;
                let down = frame.support(s1, s2, &-m, hints)?;
                let e_up = (up.w - a).dot(&m);
                let e_down = -(down.w - a).dot(&m);
                if e_up.max(e_down) <= noise {
                    let (depth, normal) = if e_up <= e_down {
                        (e_up, m)
                    } else {
                        (e_down, -m)
                    };
                    return Ok(Seed::Flat {
                        depth: depth.max(0.0),
                        normal,
                    });
                }
                pts[3] = if e_up >= e_down { up } else { down };
                n = 4;
            }
            _ => {
                build_tetrahedron(ws, &pts);
                return Ok(Seed::Polytope);
            }
        }
    }
}

/// Writes the tetrahedron `pts` (non-zero volume) into `ws` with outward faces and adjacency.
fn build_tetrahedron(ws: &mut EpaWorkspace, pts: &[CsoPoint; 4]) {
    let mut p = *pts;
    if volume6(&p[0].w, &p[1].w, &p[2].w, &p[3].w) > 0.0 {
        p.swap(1, 2);
    }
    // Now vertex 3 lies on the negative side of face 0-1-2; these windings face outwards.
    ws.verts.extend_from_slice(&p);
    let faces = [[0, 1, 2], [0, 3, 1], [0, 2, 3], [1, 3, 2]];
    for [a, b, c] in faces {
        ws.push_face(a, b, c);
    }
    for f in 0..4u32 {
        for e in 0..3u8 {
            let fv = ws.faces[f as usize].v;
            let (a, b) = (fv[e as usize], fv[(e as usize + 1) % 3]);
            for g in (f + 1)..4u32 {
                let gv = ws.faces[g as usize].v;
                for ge in 0..3u8 {
                    if gv[ge as usize] == b && gv[(ge as usize + 1) % 3] == a {
                        ws.link(f, e, g, ge);
                    }
                }
            }
        }
    }
}
