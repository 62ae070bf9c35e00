//! Per-query times of colldet's sweeps against parry3d-f64's shape casts, in the same run, on the
//! same shapes and motions:
//!
//! * translation: [`sweep_translation`] vs `cast_shapes` (linear);
//! * rotation about an axis through a pivot: [`sweep_rotation`] vs `cast_shapes_nonlinear`
//!   (`local_center` = the pivot in the body's frame, angular velocity = axis x angle);
//! * interpolated (motion (d): linear position, shortest-arc slerp about the origin):
//!   [`sweep_general_with`] vs `cast_shapes_nonlinear` (linear velocity = the displacement,
//!   angular velocity = the rotation vector of `R1 R0^T`).
//!
//! Body `a` moves, body `b` rests at the origin. Shapes: convex pairs of 8 (a box), 100 and 500
//! vertices (Chung-Wang ellipsoid hulls, circumradius 1; parry gets `ConvexPolyhedron`s hulled
//! from the same vertices) and, when `../shared/scenes/zoo-meshes` is present, a mesh pair
//! (pinion against cow, scaled to radius 1; parry gets oriented `TriMesh`es) -- skipped with a
//! note when the directory is missing. Every motion starts apart and reaches `b` near the middle
//! of the motion, so both libraries search for a first contact; the fractions each reports, and
//! the time of that first (cold) query, are printed to stderr before timing. A query that takes
//! longer than half a second once is not repeated by criterion (parry's nonlinear cast of the
//! mesh pair: tens of seconds); its single time is the figure.
//!
//! Run: `cargo bench -p colldet-ccd --bench ccd`.

use std::f64::consts::FRAC_PI_2;
use std::hint::black_box;
use std::path::Path;
use std::time::{Duration, Instant};

use colldet_ccd::{
    BodyMotion, GeneralSweepOptions, GeneralSweepWorkspace, Motion, RigidPose, SweepShape,
    TranslationWorkspace, sweep_general_with, sweep_rotation, sweep_translation,
};
use colldet_geom::math::{MatrixD, PointD, VectorD};
use colldet_geom::{BuildOptions, MeshData, Polyhedron};
use colldet_testkit::shapes::{ChungWangShape, chung_wang_polytope, cuboid};
use criterion::{Criterion, criterion_group, criterion_main};
use nalgebra::{Rotation3, Unit};
use parry3d_f64::math::{Pose as PPose, Rotation as PRot, Vector as PVec};
use parry3d_f64::query::{
    NonlinearRigidMotion, ShapeCastOptions, cast_shapes, cast_shapes_nonlinear,
};
use parry3d_f64::shape::{ConvexPolyhedron, Shape, TriMesh, TriMeshFlags};

/// One shape in both libraries.
struct Body {
    sweep: SweepShape,
    parry: Box<dyn Shape>,
}

fn body(mesh: MeshData, convex: bool) -> Body {
    let points: Vec<PVec> = mesh
        .vertices
        .iter()
        .map(|v| PVec::new(v.x.into(), v.y.into(), v.z.into()))
        .collect();
    let parry: Box<dyn Shape> = if convex {
        Box::new(ConvexPolyhedron::from_convex_hull(&points).expect("hull"))
    } else {
        let triangles: Vec<[u32; 3]> = mesh
            .faces
            .iter()
            .flat_map(|f| (1..f.len() - 1).map(move |j| [f[0], f[j], f[j + 1]]))
            .collect();
        Box::new(TriMesh::with_flags(points, triangles, TriMeshFlags::ORIENTED).expect("trimesh"))
    };
    let poly = Polyhedron::build(mesh, &BuildOptions::default()).expect("polyhedron");
    Body {
        sweep: SweepShape::new(&poly).expect("sweep shape"),
        parry,
    }
}

/// The mesh of an OFF file scaled about its box centre to circumradius 1, or `None` when it
/// cannot be read.
fn zoo_mesh(path: &Path) -> Option<MeshData> {
    let text = std::fs::read_to_string(path).ok()?;
    let mut mesh = colldet_geom::io::read_off(&text).ok()?;
    let (mut lo, mut hi) = (mesh.vertices[0], mesh.vertices[0]);
    for v in &mesh.vertices {
        lo = lo.inf(v);
        hi = hi.sup(v);
    }
    let centre = nalgebra::center(&lo, &hi);
    let radius = mesh
        .vertices
        .iter()
        .map(|v| (v - centre).norm())
        .fold(0.0f32, f32::max);
    for v in &mut mesh.vertices {
        *v = nalgebra::Point3::from((*v - centre) / radius);
    }
    Some(mesh)
}

fn ppose(p: &RigidPose) -> PPose {
    let q = nalgebra::UnitQuaternion::from_matrix(&p.rot);
    PPose::from_parts(
        PVec::new(p.trans.x, p.trans.y, p.trans.z),
        PRot::from_xyzw(q.i, q.j, q.k, q.w).normalize(),
    )
}

fn pvec(v: &VectorD) -> PVec {
    PVec::new(v.x, v.y, v.z)
}

fn rot(axis: VectorD, angle: f64) -> MatrixD {
    Rotation3::from_axis_angle(&Unit::new_normalize(axis), angle).into_inner()
}

/// The three motions of `a` against `b` resting at the origin (tilted), each reaching `b` about
/// mid-way.
struct Motions {
    pose_b: RigidPose,
    /// Translation: start pose and displacement.
    trans_start: RigidPose,
    d: VectorD,
    /// Rotation by `angle` about `axis` through `pivot`.
    rot_start: RigidPose,
    pivot: PointD,
    axis: VectorD,
    angle: f64,
    /// Interpolated: start and end poses.
    interp_start: RigidPose,
    interp_end: RigidPose,
}

fn motions() -> Motions {
    let tilt = rot(VectorD::new(1.0, 2.0, 3.0), 0.4);
    Motions {
        pose_b: RigidPose::new(rot(VectorD::new(-1.0, 0.5, 2.0), 0.7), VectorD::zeros()),
        trans_start: RigidPose::new(tilt, VectorD::new(-4.0, 0.15, -0.1)),
        d: VectorD::new(6.0, -0.1, 0.05),
        // The centre travels on a circle of radius 2.5 about (0, 2.5, 0) and ends at the
        // origin: the centres are 2 apart at about 48% of the turn.
        rot_start: RigidPose::new(tilt, VectorD::new(2.5, 2.5, 0.0)),
        pivot: PointD::new(0.0, 2.5, 0.0),
        axis: VectorD::z(),
        angle: -FRAC_PI_2,
        interp_start: RigidPose::new(tilt, VectorD::new(-4.0, 0.2, 0.1)),
        interp_end: RigidPose::new(
            rot(VectorD::new(0.0, 1.0, 1.0), 1.2) * tilt,
            VectorD::new(0.0, -0.1, 0.0),
        ),
    }
}

/// The angular velocity of `R1 R0^T` over the unit interval (shortest arc).
fn rotation_vector(r0: &MatrixD, r1: &MatrixD) -> PVec {
    let rel = nalgebra::UnitQuaternion::from_matrix(&(r1 * r0.transpose()));
    let v = rel.scaled_axis();
    PVec::new(v.x, v.y, v.z)
}

/// A single query slower than this is timed once, not by criterion (parry's nonlinear cast of
/// two triangle meshes takes tens of seconds).
const SLOW_QUERY: Duration = Duration::from_millis(500);

/// `f()` and its wall time.
fn timed<T>(f: impl FnOnce() -> T) -> (T, Duration) {
    let start = Instant::now();
    let value = f();
    (value, start.elapsed())
}

fn bench_pair(c: &mut Criterion, name: &str, a: &Body, b: &Body) {
    let m = motions();
    let zero = VectorD::zeros();
    let pb = ppose(&m.pose_b);
    let still = NonlinearRigidMotion::constant_position(pb);
    let options = ShapeCastOptions {
        max_time_of_impact: 1.0,
        ..ShapeCastOptions::default()
    };
    let mut tws = TranslationWorkspace::new();
    let mut gws = GeneralSweepWorkspace::new();
    let gopts = GeneralSweepOptions::default();

    // Rotation for parry: about the pivot, given in a's local frame.
    let rs = &m.rot_start;
    let local_pivot = rs.rot.transpose() * (m.pivot.coords - rs.trans);
    let parry_rot = NonlinearRigidMotion::new(
        ppose(rs),
        pvec(&local_pivot),
        PVec::ZERO,
        pvec(&(m.axis * m.angle)),
    );
    // Interpolated for parry: about a's origin.
    let (i0, i1) = (&m.interp_start, &m.interp_end);
    let parry_interp = NonlinearRigidMotion::new(
        ppose(i0),
        PVec::ZERO,
        pvec(&(i1.trans - i0.trans)),
        rotation_vector(&i0.rot, &i1.rot),
    );
    let interp = BodyMotion::new(*i0, Motion::Interpolated { end: *i1 }).expect("motion");
    let rest = BodyMotion::stationary(m.pose_b);

    let colldet_trans = |ws: &mut TranslationWorkspace| {
        sweep_translation(
            &a.sweep,
            &m.trans_start,
            &m.d,
            &b.sweep,
            &m.pose_b,
            &zero,
            ws,
        )
    };
    let parry_trans = || {
        cast_shapes(
            &ppose(&m.trans_start),
            pvec(&m.d),
            a.parry.as_ref(),
            &pb,
            PVec::ZERO,
            b.parry.as_ref(),
            options,
        )
        .expect("parry cast_shapes")
    };
    let colldet_rot = || {
        sweep_rotation(
            &a.sweep, rs, &m.pivot, &m.axis, m.angle, &b.sweep, &m.pose_b,
        )
        .expect("sweep_rotation")
    };
    let parry_cast_nl = |motion: &NonlinearRigidMotion| {
        cast_shapes_nonlinear(
            motion,
            a.parry.as_ref(),
            &still,
            b.parry.as_ref(),
            0.0,
            1.0,
            true,
        )
        .expect("parry cast_shapes_nonlinear")
    };
    let colldet_interp = |ws: &mut GeneralSweepWorkspace| {
        sweep_general_with(&a.sweep, &interp, &b.sweep, &rest, &gopts, ws).expect("sweep_general")
    };

    let toi = |c: Option<colldet_ccd::SweepContact>| c.map(|c| (c.toi.lo, c.toi.hi));
    let ptoi = |h: Option<parry3d_f64::query::ShapeCastHit>| h.map(|h| h.time_of_impact);
    let (ct, ct_time) = timed(|| toi(colldet_trans(&mut tws)));
    let (pt, pt_time) = timed(|| ptoi(parry_trans()));
    let (cr, cr_time) = timed(|| toi(colldet_rot()));
    let (pr, pr_time) = timed(|| ptoi(parry_cast_nl(&parry_rot)));
    let (ci, ci_time) = timed(|| toi(colldet_interp(&mut gws)));
    let (pi, pi_time) = timed(|| ptoi(parry_cast_nl(&parry_interp)));
    eprintln!(
        "ccd/{name}: first contact (time of one cold query)\n  translation colldet {ct:?} \
         ({ct_time:.2?}) parry {pt:?} ({pt_time:.2?})\n  rotation colldet {cr:?} ({cr_time:.2?}) \
         parry {pr:?} ({pr_time:.2?})\n  interpolated colldet {ci:?} ({ci_time:.2?}) parry {pi:?} \
         ({pi_time:.2?})"
    );

    let mut g = c.benchmark_group(format!("ccd/{name}"));
    // A query slower than this once is not repeated by criterion (its one time is printed).
    let affordable = |id: &str, once: Duration| {
        let ok = once < SLOW_QUERY;
        if !ok {
            eprintln!("ccd/{name}/{id}: one query took {once:.2?}: not benchmarked (see above)");
        }
        ok
    };
    if affordable("translation/colldet", ct_time) {
        g.bench_function("translation/colldet", |bch| {
            bch.iter(|| black_box(colldet_trans(&mut tws)))
        });
    }
    if affordable("translation/parry", pt_time) {
        g.bench_function("translation/parry", |bch| {
            bch.iter(|| black_box(parry_trans()))
        });
    }
    if affordable("rotation/colldet", cr_time) {
        g.bench_function("rotation/colldet", |bch| {
            bch.iter(|| black_box(colldet_rot()))
        });
    }
    if affordable("rotation/parry", pr_time) {
        g.bench_function("rotation/parry", |bch| {
            bch.iter(|| black_box(parry_cast_nl(&parry_rot)))
        });
    }
    if affordable("interpolated/colldet", ci_time) {
        g.bench_function("interpolated/colldet", |bch| {
            bch.iter(|| black_box(colldet_interp(&mut gws)))
        });
    }
    if affordable("interpolated/parry", pi_time) {
        g.bench_function("interpolated/parry", |bch| {
            bch.iter(|| black_box(parry_cast_nl(&parry_interp)))
        });
    }
    g.finish();
}

fn bench(c: &mut Criterion) {
    let boxes = [0, 1].map(|_| body(cuboid(VectorD::new(0.7, 0.5, 0.4)).expect("box"), true));
    bench_pair(c, "convex-8", &boxes[0], &boxes[1]);
    for n in [100, 500] {
        let a = body(
            chung_wang_polytope(ChungWangShape::Ellipsoid, n, 11).expect("hull"),
            true,
        );
        let b = body(
            chung_wang_polytope(ChungWangShape::Ellipsoid, n, 12).expect("hull"),
            true,
        );
        bench_pair(c, &format!("convex-{n}"), &a, &b);
    }
    let zoo = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared/scenes/zoo-meshes");
    match (
        zoo_mesh(&zoo.join("pinion.off")),
        zoo_mesh(&zoo.join("cow.off")),
    ) {
        (Some(a), Some(b)) => {
            let (a, b) = (body(a, false), body(b, false));
            bench_pair(c, "mesh-pinion-cow", &a, &b);
        }
        _ => eprintln!(
            "ccd: no mesh pair ({} missing or unreadable): mesh case skipped",
            zoo.display()
        ),
    }
}

criterion_group! {
    name = benches;
    config = Criterion::default()
        .sample_size(20)
        .warm_up_time(Duration::from_millis(300))
        .measurement_time(Duration::from_secs(1));
    targets = bench
}
criterion_main!(benches);
