//! Triangle soups in the world: welded by default, a soup that encloses a volume has solid
//! semantics (containment; a convex one takes the convex test under `Method::Auto`) and its
//! witnesses name the input's faces and vertices; built without welding it is a surface only.

use std::sync::{Arc, Mutex};

use colldet_geom::math::{Pose, VectorD};
use colldet_geom::{BuildOptions, MeshData};
use colldet_testkit::shapes::{cuboid, triangle_soup};
use colldet_world::{Config, Method, NO_FEATURE, Witness, WitnessKind, World};

fn serial(method: Method) -> Config {
    Config {
        threads: 1,
        broad_phase: colldet_world::BroadPhaseKind::AllPairs,
        method,
        ..Config::default()
    }
}

fn no_weld() -> BuildOptions {
    BuildOptions {
        weld_coincident_vertices: false,
        ..BuildOptions::default()
    }
}

/// The STL-style cube of half extent `h`: 12 triangles, 36 vertices.
fn soup_cube(h: f64) -> MeshData {
    triangle_soup(&cuboid(VectorD::new(h, h, h)).unwrap())
}

/// True when `v` is the lowest index of `mesh` at its position.
fn is_lowest_at_position(mesh: &MeshData, v: u32) -> bool {
    let p = mesh.vertex_f64(v as usize);
    (0..v as usize).all(|w| mesh.vertex_f64(w) != p)
}

/// Adds `inner` and `outer` (each welded or not), places `inner` at `x` on the x axis and returns
/// the witnesses of one check.
fn witnesses(
    method: Method,
    inner: (MeshData, bool),
    outer: (MeshData, bool),
    x: f64,
) -> Vec<Witness> {
    let options = |weld: bool| {
        if weld {
            BuildOptions::default()
        } else {
            no_weld()
        }
    };
    let mut world = World::new(serial(method)).unwrap();
    let a = world
        .make_collidable_with(inner.0, &options(inner.1), "inner")
        .unwrap();
    world
        .make_collidable_with(outer.0, &options(outer.1), "outer")
        .unwrap();
    let seen = Arc::new(Mutex::new(Vec::new()));
    let sink = Arc::clone(&seen);
    world.set_general_callback(Box::new(move |c, _| sink.lock().unwrap().push(c.witness)));
    world.start().unwrap();
    world
        .set_transform(a, Pose::translation(x, 0.0, 0.0))
        .unwrap();
    world.check().unwrap();
    std::mem::take(&mut *seen.lock().unwrap())
}

const METHODS: [Method; 3] = [Method::Auto, Method::Arbitrary, Method::BoxTree];

#[test]
fn a_cube_inside_a_soup_cube_collides_only_when_the_soup_is_welded() {
    for method in METHODS {
        let small = || (cuboid(VectorD::new(0.1, 0.1, 0.1)).unwrap(), true);
        let soup = soup_cube(2.0);
        let welded = witnesses(method, small(), (soup.clone(), true), 0.5);
        assert_eq!(welded.len(), 1, "{method:?}");
        let w = welded[0];
        match (method, w.kind) {
            // Welded, the soup is a convex solid: Auto takes the convex test.
            (Method::Auto, WitnessKind::SupportVertices) => {
                assert!(w.feature_a < 8, "{w:?}");
                assert!(is_lowest_at_position(&soup, w.feature_b), "{w:?}");
            }
            (_, WitnessKind::Containment) => {
                assert!(w.feature_a < 8 && w.feature_b == NO_FEATURE, "{w:?}");
            }
            other => panic!("{other:?}"),
        }

        let surface = witnesses(method, small(), (soup_cube(2.0), false), 0.5);
        assert!(
            surface.is_empty(),
            "{method:?}: a soup surface has no inside"
        );
    }
}

#[test]
fn a_soup_cube_inside_a_cube_names_an_input_vertex() {
    let soup = soup_cube(0.1);
    for method in METHODS {
        for weld in [true, false] {
            let big = (cuboid(VectorD::new(2.0, 2.0, 2.0)).unwrap(), true);
            let seen = witnesses(method, (soup.clone(), weld), big, 0.5);
            assert_eq!(seen.len(), 1, "{method:?} weld {weld}");
            let expected = if weld && method == Method::Auto {
                WitnessKind::SupportVertices
            } else {
                WitnessKind::Containment
            };
            assert_eq!(seen[0].kind, expected, "{method:?} weld {weld}");
            let v = seen[0].feature_a;
            assert!(v < 36, "{method:?}: vertex {v} is an input index");
            if weld {
                assert!(is_lowest_at_position(&soup, v), "{method:?}: vertex {v}");
            }
        }
    }
}

#[test]
fn crossing_soup_cubes_report_input_faces_and_vertices() {
    let soup = soup_cube(0.5);
    for method in METHODS {
        let seen = witnesses(method, (soup.clone(), true), (soup.clone(), true), 0.7);
        assert_eq!(seen.len(), 1, "{method:?}");
        let w = seen[0];
        match w.kind {
            WitnessKind::FaceFace => {
                assert!(w.feature_a < 12 && w.feature_b < 12, "{method:?}: {w:?}");
            }
            WitnessKind::SupportVertices => {
                for v in [w.feature_a, w.feature_b] {
                    assert!(
                        v == NO_FEATURE || (v < 36 && is_lowest_at_position(&soup, v)),
                        "{method:?}: {w:?}"
                    );
                }
            }
            other => panic!("{method:?}: {other:?}"),
        }
    }
}
