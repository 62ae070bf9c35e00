//! A tiny generated scene played through colldet and parry3d-f64: both must count the known
//! colliding pairs frame by frame, including a cube inside a closed mesh (solid semantics: parry
//! only sees it through the peer's containment test) and a pair that starts touching mid-scene;
//! a gap inside colldet's touching band is reported by `differences_at`.

use std::path::PathBuf;

use colldet_benches::explain::differences_at;
use colldet_benches::{ColldetPeer, ParryPeer, PeerScene, play};
use colldet_world::Config;

/// An axis-aligned cube of half side `h` centred at the origin, outward triangles.
fn cube_off(h: f64) -> String {
    let mut text = String::from("OFF\n8 12 0\n");
    for i in 0..8 {
        let c = |bit: usize| if i & bit != 0 { h } else { -h };
        text.push_str(&format!("{} {} {}\n", c(1), c(2), c(4)));
    }
    for [a, b, c, d] in [
        [0, 4, 6, 2],
        [1, 3, 7, 5],
        [0, 1, 5, 4],
        [2, 6, 7, 3],
        [0, 2, 3, 1],
        [4, 5, 7, 6],
    ] {
        text.push_str(&format!("3 {a} {b} {c}\n3 {a} {c} {d}\n"));
    }
    text
}

const FRAMES: usize = 50;

/// Writes the scene and its meshes into a fresh directory named after `tag` and returns the
/// scene file.
fn write_scene(tag: &str, frames: usize, objects: &[&str]) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("colldet-peers-{tag}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("unit.off"), cube_off(0.5)).unwrap();
    std::fs::write(dir.join("big.off"), cube_off(2.0)).unwrap();
    let scene = format!(
        "colldet-scene 1\nname tiny\nbox -10 -10 -10 10 10 10\nframes {frames}\nmeshes 2\n\
         mesh 0 unit.off 1\nmesh 1 big.off 0\nobjects {}\n{}\n",
        objects.len(),
        objects.join("\n")
    );
    let path = dir.join("tiny.scene");
    std::fs::write(&path, scene).unwrap();
    path
}

#[test]
fn colldet_and_parry_count_the_known_pairs() {
    // Objects (p0, v, a, w):
    // 0 big closed mesh at the origin; 1 unit cube inside it, turned (containment);
    // 2, 3 overlapping unit cubes; 4 rises at 0.05 per frame towards 5, touching from frame 41
    // (0.05 f >= 2.01); 6 crosses the big mesh's surface.
    let objects = [
        "obj 1 0 0 0 0 0 0 0 0 0 0 0 0",
        "obj 0 0 0 0 0 0 0 0.3 0.2 0.1 0 0 0",
        "obj 0 6 0 0 0 0 0 0 0 0 0 0 0",
        "obj 0 6.9 0 0 0 0 0 0 0 0 0 0 0",
        "obj 0 -6 0 0 0 0.05 0 0 0 0 0 0 0",
        "obj 0 -6 3.01 0 0 0 0 0 0 0 0 0 0",
        "obj 0 0 2.2 0 0 0 0 0 0 0 0 0 0",
    ];
    let path = write_scene("totals", FRAMES, &objects);
    let scene = PeerScene::load(&path).unwrap();
    let config = Config {
        threads: 1,
        ..Config::default()
    };
    let colldet = play(&mut ColldetPeer::new(&scene, config).unwrap(), &scene, None).unwrap();
    let parry = play(&mut ParryPeer::new(&scene).unwrap(), &scene, None).unwrap();
    std::fs::remove_dir_all(path.parent().unwrap()).unwrap();

    let expected: Vec<usize> = (0..FRAMES).map(|f| if f >= 41 { 4 } else { 3 }).collect();
    assert_eq!(colldet.colliding, expected);
    assert_eq!(parry.colliding, expected);
    assert_eq!(colldet.pairs_total(), 159);
    assert_eq!(colldet.frame_ms.len(), FRAMES);
    assert_eq!(parry.broad_ms.len(), FRAMES);
}

#[test]
fn a_gap_inside_the_convex_tests_band_is_decided_exactly() {
    // Two unit cubes 1e-9 apart along x: inside the convex tests' touching band (1e-9 x (r1 +
    // r2) = 1.7e-9), where the exact mesh test decides: separated, as parry measures.
    let path = write_scene(
        "band",
        1,
        &[
            "obj 0 0 0 0 0 0 0 0 0 0 0 0 0",
            "obj 0 1.000000001 0 0 0 0 0 0 0 0 0 0 0",
        ],
    );
    let scene = PeerScene::load(&path).unwrap();
    let config = Config {
        threads: 1,
        ..Config::default()
    };
    let differences = differences_at(&scene, 0, config).unwrap();
    std::fs::remove_dir_all(path.parent().unwrap()).unwrap();
    assert!(differences.is_empty(), "{differences:?}");
}
