//! A tour of colldet-geom: generates the thesis and Chung-Wang shapes, builds and classifies each
//! polyhedron, then compares the support-mapping methods on coherent direction sequences.
//! Run by `make demo` until the `colldet` runner exists.

use std::time::Instant;

use colldet_geom::math::{Vector, VectorD};
use colldet_geom::{BuildOptions, ConvexPolytope, GeomError, MeshData, Polyhedron};
use colldet_testkit::SeededRng;
use colldet_testkit::shapes::{
    ChungWangShape, chung_wang_polytope, cone, cube_array, cuboid, cylinder, hyperboloid, sphere,
    tetra_flake, torus,
};

fn yes(flag: bool) -> &'static str {
    if flag { "yes" } else { "-" }
}

fn main() -> Result<(), GeomError> {
    let shapes: Vec<(&str, MeshData)> = vec![
        ("sphere 32x16", sphere(1.0, 32, 16)?),
        ("torus 48x24", torus(3.0, 1.0, 48, 24)?),
        ("cone 32", cone(1.0, 2.0, 32)?),
        ("cylinder 32", cylinder(1.0, 2.0, 32)?),
        ("hyperboloid", hyperboloid(0.5, 1.0, 2.0, 32, 8)?),
        ("cuboid", cuboid(VectorD::new(1.0, 2.0, 3.0))?),
        ("cube array 3^3", cube_array(3, 3, 3, 1.0, 0.5)?),
        ("tetra-flake 3", tetra_flake(3, 1.0)?),
        (
            "CW ellipsoid 500",
            chung_wang_polytope(ChungWangShape::Ellipsoid, 500, 1)?,
        ),
        (
            "CW rod 500",
            chung_wang_polytope(ChungWangShape::Rod, 500, 1)?,
        ),
        (
            "CW plate 500",
            chung_wang_polytope(ChungWangShape::Plate, 500, 1)?,
        ),
    ];
    println!(
        "{:<18} {:>6} {:>6} {:>6} {:>8} {:>6} {:>8} {:>6} {:>7} {:>8} {:>9}",
        "shape",
        "verts",
        "edges",
        "faces",
        "manifold",
        "closed",
        "oriented",
        "convex",
        "euler",
        "internal",
        "build ms"
    );
    for (name, mesh) in shapes {
        let start = Instant::now();
        let p = Polyhedron::build(mesh, &BuildOptions::default())?;
        let ms = start.elapsed().as_secs_f64() * 1e3;
        let c = p.classification();
        println!(
            "{:<18} {:>6} {:>6} {:>6} {:>8} {:>6} {:>8} {:>6} {:>7} {:>8} {:>9.2}",
            name,
            p.dcel().vertex_count(),
            p.dcel().edge_count(),
            p.dcel().face_count(),
            yes(c.manifold),
            yes(c.closed),
            yes(c.oriented),
            yes(c.convex),
            c.euler_characteristic,
            c.internal_edge_count,
            ms
        );
    }

    println!(
        "\nsupport mapping: mean vertex visits per query, 2000 directions turning 10 degrees a step"
    );
    println!(
        "{:>7} {:>12} {:>10} {:>10} {:>10} {:>10}",
        "verts", "brute force", "cold", "warm", "table", "DK"
    );
    for n in [12, 100, 1000, 10000] {
        let polytope = ConvexPolytope::from_convex_mesh(&chung_wang_polytope(
            ChungWangShape::Ellipsoid,
            n,
            7,
        )?)?;
        let mut rng = SeededRng::new(11);
        let axis = rng.unit_vector();
        let turn = nalgebra::UnitQuaternion::from_axis_angle(&axis, 10f64.to_radians());
        let mut dir = rng.unit_vector().into_inner();
        let (mut cold, mut warm, mut table, mut dk) = (0u64, 0u64, 0u64, 0u64);
        let mut previous = 0;
        let steps = 2000;
        for _ in 0..steps {
            dir = turn * dir;
            let d: Vector = nalgebra::convert(dir);
            cold += u64::from(polytope.support_hill_climb(&d, 0).visits);
            let w = polytope.support_hill_climb(&d, previous);
            previous = w.vertex;
            warm += u64::from(w.visits);
            table += u64::from(polytope.support_from_table_counted(&d).visits);
            dk += u64::from(polytope.support_dk_counted(&d).visits);
        }
        let mean = |x: u64| x as f64 / f64::from(steps);
        println!(
            "{:>7} {:>12} {:>10.1} {:>10.1} {:>10.1} {:>10.1}",
            polytope.vertex_count(),
            polytope.vertex_count(),
            mean(cold),
            mean(warm),
            mean(table),
            mean(dk)
        );
    }
    Ok(())
}
