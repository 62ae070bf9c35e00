//! A first colldet world in Rust: two boxes and a ball, moved frame by frame; collisions through
//! a callback, the contact manifold and the distance of a pair.
//!
//! Run with `cargo run -p colldet-world --example first_world`.

use std::sync::{Arc, Mutex};

use colldet_geom::math::{Point, Pose};
use colldet_geom::{FaceList, MeshData};
use colldet_world::{Config, World};

/// A box with half extents `h`, centred at its local origin: 8 vertices, 6 quads listed
/// counter-clockwise seen from outside.
fn box_mesh(h: [f32; 3]) -> MeshData {
    let vertices = (0..8)
        .map(|i| {
            let s = |bit: u32, half: f32| if i & bit == 0 { -half } else { half };
            Point::new(s(1, h[0]), s(2, h[1]), s(4, h[2]))
        })
        .collect();
    let mut faces = FaceList::new();
    for quad in [
        [0, 4, 6, 2],
        [1, 3, 7, 5],
        [0, 1, 5, 4],
        [2, 6, 7, 3],
        [0, 2, 3, 1],
        [4, 5, 7, 6],
    ] {
        faces.push(&quad);
    }
    MeshData::new(vertices, faces)
}

/// `[x, y, z]` with three decimals.
fn v3(v: &[f64]) -> String {
    format!("[{:.3}, {:.3}, {:.3}]", v[0], v[1], v[2])
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    // The user data of each object is its name.
    let mut world: World<&'static str> = World::new(Config::default())?;
    let floor = world.make_collidable(box_mesh([5.0, 5.0, 0.5]), "floor")?;
    let crate_ = world.make_collidable(box_mesh([0.5, 0.5, 0.5]), "crate")?;
    // A second crate shares the first one's geometry (no copy).
    let other = world.make_instance(crate_, "other crate")?;
    world.set_transform(floor, Pose::translation(0.0, 0.0, -0.5))?;
    world.set_transform(other, Pose::translation(3.0, 0.0, 0.5))?;

    // Collisions are reported by `check` through callbacks, sorted by id pair, on this thread.
    let seen = Arc::new(Mutex::new(Vec::new()));
    let sink = Arc::clone(&seen);
    world.set_general_callback(Box::new(move |c, _ctx| {
        sink.lock()
            .unwrap()
            .push((c.user_a.to_string(), c.user_b.to_string()));
    }));
    world.start()?;

    // The other crate rests on the floor (touching counts). The crate falls onto the floor:
    // its bottom 1.4, 0.9 and 0.4 above it, then 0.1 into it.
    for frame in 0..4 {
        let z = 1.9 - 0.5 * f64::from(frame);
        world.set_transform(crate_, Pose::translation(0.0, 0.0, z))?;
        let colliding = world.check()?;
        let names = std::mem::take(&mut *seen.lock().unwrap());
        println!("frame {frame}: crate at z = {z:.1}, {colliding} new collisions {names:?}");
    }

    // The crate rests 0.1 deep in the floor: the contact a solver would push apart.
    if let Some(m) = world.contact(floor, crate_)? {
        println!(
            "floor/crate: normal {}, depth {:.3}, {} points",
            v3(m.normal.as_slice()),
            m.depth,
            m.count
        );
        for p in m.points() {
            println!(
                "  at {}, depth {:.3}",
                v3(p.point_b.coords.as_slice()),
                p.depth
            );
        }
    }
    let d = world.distance(crate_, other)?;
    println!(
        "crate to other crate: {:.3} apart, closest points {} and {}",
        d.distance,
        v3(d.point_a.coords.as_slice()),
        v3(d.point_b.coords.as_slice())
    );
    Ok(())
}
