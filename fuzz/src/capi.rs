//! Fuzz target `c_api`: the C API as a sequence of calls decoded from the fuzzer's bytes, played
//! on two mirror worlds (sweep-and-prune on one thread, the dynamic tree on two) with a shadow
//! model of what must hold after every call:
//! - a status is one of the documented codes, never `COL_ERR_INTERNAL` (a caught panic), the
//!   same in both worlds, and every failure leaves a message in `colLastError`;
//! - calls that must succeed do (making a valid cube, moving or removing a live object, checking
//!   a started world), calls that must fail do (a stale handle, a NaN pose, a check before
//!   `colStart`, NULL out-pointers), and the world stays usable after every error;
//! - both worlds report the same collisions, each between two live objects whose pair is not
//!   switched off, and answer distance and contact queries identically;
//! - concurrent mode: one world runs `colCheckBegin` ... `colCheckEnd` where the other runs
//!   `colCheck` at the begin, and both report the same collisions (moves made in between count
//!   for the next check in both); while the check runs, every call but `colSetTransform(d)` and
//!   `colCheckEnd` gets `COL_ERR_WORLD_LOCKED` (a second `colCheckBegin` too), `colCheckEnd`
//!   without a running check gets `COL_ERR_WRONG_STATE`, and `colExit` waits for a check still
//!   running at the end of the input.
//!
//! Objects are tracked by a tag passed as their client data, so the two worlds' ids never need
//! to agree.

use std::collections::HashSet;
use std::ffi::{CStr, c_void};

use colldet::*;

/// The bytes of one input, read front to back; reads past the end give zeros.
struct Bytes<'a> {
    data: &'a [u8],
    pos: usize,
}

impl Bytes<'_> {
    fn byte(&mut self) -> u8 {
        let b = self.data.get(self.pos).copied().unwrap_or(0);
        self.pos += 1;
        b
    }

    fn done(&self) -> bool {
        self.pos >= self.data.len()
    }

    /// A coordinate on a grid of quarter units in `[-4, 4)`: touching and coincident faces
    /// happen often.
    fn coordinate(&mut self) -> f64 {
        f64::from(self.byte() % 32) * 0.25 - 4.0
    }
}

/// One world of the mirror pair, with the collisions its general callback recorded.
struct Mirror {
    world: *mut ColWorld,
    /// Boxed: the callback holds its address, which must not move with the `Mirror`.
    #[allow(clippy::box_collection)]
    reported: Box<Vec<(usize, usize)>>,
}

extern "C" fn record(c: *const ColCollision, user: *mut c_void) {
    // SAFETY: `user` is the mirror's `reported` vector, alive while the world is; `c` is valid
    // during the call.
    unsafe {
        let reported = &mut *(user as *mut Vec<(usize, usize)>);
        let c = &*c;
        reported.push((c.client_data_a as usize, c.client_data_b as usize));
    }
}

/// A shadow object: its tag (client data), its id in each world, and whether it is live.
struct Object {
    tag: usize,
    ids: [ColObjectId; 2],
    live: bool,
}

/// The shadow model of both worlds.
#[derive(Default)]
struct Shadow {
    objects: Vec<Object>,
    switched_off: HashSet<(usize, usize)>,
    started: bool,
    /// The mirror whose concurrent check runs (`colCheckBegin` without `colCheckEnd` yet).
    running: Option<usize>,
}

impl Shadow {
    fn live(&self) -> Vec<usize> {
        (0..self.objects.len())
            .filter(|&k| self.objects[k].live)
            .collect()
    }
}

const CUBE: [f32; 24] = [
    -0.5, -0.5, -0.5, 0.5, -0.5, -0.5, 0.5, 0.5, -0.5, -0.5, 0.5, -0.5, -0.5, -0.5, 0.5, 0.5, -0.5,
    0.5, 0.5, 0.5, 0.5, -0.5, 0.5, 0.5,
];
const CUBE_INDICES: [u32; 24] = [
    0, 3, 2, 1, 4, 5, 6, 7, 0, 1, 5, 4, 1, 2, 6, 5, 2, 3, 7, 6, 3, 0, 4, 7,
];
const QUADS: [u32; 6] = [4; 6];

/// Checks a status of both worlds: each as [`status_of`], and equal.
fn statuses(mirrors: &[Mirror; 2], got: [ColStatus; 2], call: &str) -> ColStatus {
    for (m, &s) in mirrors.iter().zip(&got) {
        status_of(m, s, call);
    }
    assert_eq!(got[0], got[1], "{call}: the mirror worlds disagree");
    got[0]
}

/// Checks a status of one world: documented, not a caught panic, explained on failure.
fn status_of(mirror: &Mirror, s: ColStatus, call: &str) -> ColStatus {
    assert!(
        (COL_OK..=COL_ERR_NUMERICAL).contains(&s),
        "{call}: undocumented status {s}"
    );
    assert_ne!(
        s, COL_ERR_INTERNAL,
        "{call}: internal error (a caught panic)"
    );
    if s != COL_OK {
        // SAFETY: a live world; the message is a NUL-terminated string it owns.
        let message = unsafe { CStr::from_ptr(colLastError(mirror.world)) };
        assert!(
            !message.to_bytes().is_empty(),
            "{call}: status {s} without a message"
        );
    }
    s
}

/// Both worlds' reports since they were cleared: equal as sets, each pair between two live
/// objects whose pair is not switched off.
fn assert_reports(mirrors: &[Mirror; 2], shadow: &Shadow) {
    let sorted = |m: &Mirror| {
        let mut v: Vec<(usize, usize)> = m
            .reported
            .iter()
            .map(|&(a, b)| (a.min(b), a.max(b)))
            .collect();
        v.sort_unstable();
        v
    };
    let (first, second) = (sorted(&mirrors[0]), sorted(&mirrors[1]));
    assert_eq!(
        first, second,
        "the mirror worlds report different collisions"
    );
    let live_tags: HashSet<usize> = shadow
        .objects
        .iter()
        .filter(|o| o.live)
        .map(|o| o.tag)
        .collect();
    for pair in &first {
        assert!(pair.0 != pair.1, "an object collides with itself");
        assert!(
            live_tags.contains(&pair.0) && live_tags.contains(&pair.1),
            "{pair:?}: not live"
        );
        assert!(
            !shadow.switched_off.contains(pair),
            "{pair:?}: switched off"
        );
    }
}

/// While mirror `w`'s concurrent check runs: the call that `op` stands for (a structural call,
/// a check, a query, a second begin) must be refused with `COL_ERR_WORLD_LOCKED`.
///
/// # Safety
/// `mirror` is a live world with a running concurrent check.
unsafe fn assert_locked(mirror: &Mirror, op: u8, id: ColObjectId) {
    let desc = ColMeshDesc {
        vertices: CUBE.as_ptr(),
        vertex_count: 8,
        indices: CUBE_INDICES.as_ptr(),
        face_sizes: QUADS.as_ptr(),
        face_count: 6,
    };
    let world = mirror.world;
    let mut out = 0;
    let mut within = 0;
    // SAFETY: a live world and valid pointers (the lock is checked before any of them is read).
    let (s, call) = unsafe {
        match op {
            0..=2 => (
                colMakeCollidable(world, &desc, std::ptr::null_mut(), &mut out),
                "make while checking",
            ),
            3 => (colRemoveCollidable(world, id), "remove while checking"),
            6 => (colSetInterest(world, id, id, 0), "interest while checking"),
            7 => (colStart(world), "start while checking"),
            8 => (colCheck(world), "check while checking"),
            9 => (
                colWithinDistance(world, id, id, 1.0, &mut within),
                "query while checking",
            ),
            _ => (colCheckBegin(world), "begin while checking"),
        }
    };
    assert_eq!(status_of(mirror, s, call), COL_ERR_WORLD_LOCKED, "{call}");
}

/// A column-major rigid pose: rotation by `angle` about z, translation `t`.
fn pose(angle: f64, t: [f64; 3]) -> [f64; 16] {
    let (s, c) = angle.sin_cos();
    [
        c, s, 0.0, 0.0, -s, c, 0.0, 0.0, 0.0, 0.0, 1.0, 0.0, t[0], t[1], t[2], 1.0,
    ]
}

/// The fuzz body (module docs).
pub fn c_api(data: &[u8]) {
    let mut bytes = Bytes { data, pos: 0 };
    let configs = [(COL_BROADPHASE_SAP, 1), (COL_BROADPHASE_TREE, 2)];
    let mut mirrors = configs.map(|(broadphase, threads)| {
        let mut config = colDefaultConfig();
        config.broadphase = broadphase;
        config.threads = threads;
        let mut world = std::ptr::null_mut();
        // SAFETY: valid config and out-pointer.
        assert_eq!(unsafe { colInit(&config, &mut world) }, COL_OK);
        let mut reported = Box::new(Vec::new());
        let user = &mut *reported as *mut Vec<(usize, usize)> as *mut c_void;
        // SAFETY: live world; `user` outlives it (dropped after colExit below).
        assert_eq!(
            unsafe { colSetGeneralCallback(world, Some(record), user) },
            COL_OK
        );
        Mirror { world, reported }
    });
    let mut shadow = Shadow::default();
    let mut next_tag = 1usize;
    for _ in 0..256 {
        if bytes.done() {
            break;
        }
        let op = bytes.byte() % 12;
        let live = shadow.live();
        let pick = |b: u8| live.get(usize::from(b) % live.len().max(1)).copied();
        if let Some(w) = shadow.running
            && !matches!(op, 4 | 5 | 11)
        {
            let id = pick(bytes.byte()).map_or(1, |k| shadow.objects[k].ids[w]);
            // SAFETY: a live world whose concurrent check runs.
            unsafe { assert_locked(&mirrors[w], op, id) };
            continue;
        }
        // SAFETY (every call below): live worlds, valid or deliberately NULL pointers that the
        // API documents as refused.
        unsafe {
            match op {
                // A cube scaled by 1/4 to 2 (or an instance of a live object).
                0 | 1 => {
                    let tag = next_tag;
                    next_tag += 1;
                    let source = if op == 1 { pick(bytes.byte()) } else { None };
                    let scale = f32::from(bytes.byte() % 8 + 1) * 0.25;
                    let vertices: Vec<f32> = CUBE.iter().map(|x| x * scale).collect();
                    let desc = ColMeshDesc {
                        vertices: vertices.as_ptr(),
                        vertex_count: 8,
                        indices: CUBE_INDICES.as_ptr(),
                        face_sizes: QUADS.as_ptr(),
                        face_count: 6,
                    };
                    let mut ids = [0; 2];
                    let got = [0, 1].map(|w| match source {
                        Some(k) => colMakeInstance(
                            mirrors[w].world,
                            shadow.objects[k].ids[w],
                            tag as *mut c_void,
                            &mut ids[w],
                        ),
                        None => colMakeCollidable(
                            mirrors[w].world,
                            &desc,
                            tag as *mut c_void,
                            &mut ids[w],
                        ),
                    });
                    assert_eq!(statuses(&mirrors, got, "make"), COL_OK);
                    shadow.objects.push(Object {
                        tag,
                        ids,
                        live: true,
                    });
                }
                // A mesh from the bytes: any vertices and indices, valid or not.
                2 => {
                    let n = usize::from(bytes.byte() % 9);
                    let vertices: Vec<f32> =
                        (0..3 * n).map(|_| bytes.coordinate() as f32).collect();
                    let faces = usize::from(bytes.byte() % 5);
                    let sizes: Vec<u32> = (0..faces).map(|_| u32::from(bytes.byte() % 5)).collect();
                    let indices: Vec<u32> = (0..sizes.iter().sum::<u32>())
                        .map(|_| u32::from(bytes.byte() % 10))
                        .collect();
                    let desc = ColMeshDesc {
                        vertices: vertices.as_ptr(),
                        vertex_count: n,
                        indices: indices.as_ptr(),
                        face_sizes: sizes.as_ptr(),
                        face_count: faces,
                    };
                    let tag = next_tag;
                    next_tag += 1;
                    let mut ids = [7; 2];
                    let got = [0, 1].map(|w| {
                        colMakeCollidable(mirrors[w].world, &desc, tag as *mut c_void, &mut ids[w])
                    });
                    if statuses(&mirrors, got, "make mesh") == COL_OK {
                        shadow.objects.push(Object {
                            tag,
                            ids,
                            live: true,
                        });
                    } else {
                        assert_eq!(ids, [0, 0], "*out_id is 0 on failure");
                    }
                }
                // Remove a live object, or a removed one again.
                3 => {
                    let b = bytes.byte();
                    let removed: Vec<usize> = (0..shadow.objects.len())
                        .filter(|&k| !shadow.objects[k].live)
                        .collect();
                    let (k, expect) = match (pick(b), b.is_multiple_of(4) && !removed.is_empty()) {
                        (_, true) => (
                            removed[usize::from(b) % removed.len()],
                            COL_ERR_INVALID_HANDLE,
                        ),
                        (Some(k), false) => (k, COL_OK),
                        (None, false) => continue,
                    };
                    let got = [0, 1]
                        .map(|w| colRemoveCollidable(mirrors[w].world, shadow.objects[k].ids[w]));
                    assert_eq!(statuses(&mirrors, got, "remove"), expect);
                    shadow.objects[k].live = false;
                }
                // Move a live object (1 in 8 poses is NaN).
                4 | 5 => {
                    let Some(k) = pick(bytes.byte()) else {
                        continue;
                    };
                    let angle = f64::from(bytes.byte()) * 0.1;
                    let t = [bytes.coordinate(), bytes.coordinate(), bytes.coordinate()];
                    let mut m = pose(angle, t);
                    let nan = bytes.byte().is_multiple_of(8);
                    if nan {
                        m[13] = f64::NAN;
                    }
                    let got = [0, 1].map(|w| {
                        colSetTransformd(mirrors[w].world, shadow.objects[k].ids[w], m.as_ptr())
                    });
                    let s = statuses(&mirrors, got, "set transform");
                    assert_eq!(s == COL_OK, !nan, "set transform: status {s}, NaN {nan}");
                }
                // Switch a pair on or off.
                6 => {
                    let (Some(a), Some(b)) = (pick(bytes.byte()), pick(bytes.byte())) else {
                        continue;
                    };
                    let on = bytes.byte() % 2;
                    let got = [0, 1].map(|w| {
                        colSetInterest(
                            mirrors[w].world,
                            shadow.objects[a].ids[w],
                            shadow.objects[b].ids[w],
                            i32::from(on),
                        )
                    });
                    let s = statuses(&mirrors, got, "interest");
                    if a == b {
                        assert_ne!(s, COL_OK, "interest of an object with itself");
                        continue;
                    }
                    assert_eq!(s, COL_OK);
                    let key = {
                        let (x, y) = (shadow.objects[a].tag, shadow.objects[b].tag);
                        (x.min(y), x.max(y))
                    };
                    if on == 0 {
                        shadow.switched_off.insert(key);
                    } else {
                        shadow.switched_off.remove(&key);
                    }
                }
                // Start (once), then check.
                7 | 8 => {
                    if !shadow.started && op == 7 {
                        let got = [0, 1].map(|w| colStart(mirrors[w].world));
                        assert_eq!(statuses(&mirrors, got, "start"), COL_OK);
                        shadow.started = true;
                        continue;
                    }
                    for m in &mut mirrors {
                        m.reported.clear();
                    }
                    let got = [0, 1].map(|w| colCheck(mirrors[w].world));
                    let s = statuses(&mirrors, got, "check");
                    if !shadow.started {
                        assert_eq!(s, COL_ERR_WRONG_STATE, "check before start");
                        continue;
                    }
                    assert_eq!(s, COL_OK);
                    assert_reports(&mirrors, &shadow);
                }
                // Begin a concurrent check in one world, checking the other at once.
                10 => {
                    let w = usize::from(bytes.byte() % 2);
                    if !shadow.started {
                        let got = [0, 1].map(|w| colCheckBegin(mirrors[w].world));
                        let s = statuses(&mirrors, got, "begin before start");
                        assert_eq!(s, COL_ERR_WRONG_STATE);
                        continue;
                    }
                    for m in &mut mirrors {
                        m.reported.clear();
                    }
                    let s = colCheckBegin(mirrors[w].world);
                    assert_eq!(status_of(&mirrors[w], s, "begin"), COL_OK);
                    let s = colCheck(mirrors[1 - w].world);
                    assert_eq!(status_of(&mirrors[1 - w], s, "check beside begin"), COL_OK);
                    shadow.running = Some(w);
                }
                // End the concurrent check (its callbacks run here), or end without one.
                11 => {
                    let Some(w) = shadow.running.take() else {
                        let got = [0, 1].map(|w| colCheckEnd(mirrors[w].world));
                        let s = statuses(&mirrors, got, "end without begin");
                        assert_eq!(s, COL_ERR_WRONG_STATE);
                        continue;
                    };
                    let s = colCheckEnd(mirrors[w].world);
                    assert_eq!(status_of(&mirrors[w], s, "end"), COL_OK);
                    assert_reports(&mirrors, &shadow);
                }
                // Queries, and refused calls.
                _ => {
                    let (Some(a), Some(b)) = (pick(bytes.byte()), pick(bytes.byte())) else {
                        continue;
                    };
                    let (ia, ib) = (shadow.objects[a].ids, shadow.objects[b].ids);
                    let mut p = [ColProximity {
                        distance: 0.0,
                        point_a: [0.0; 3],
                        point_b: [0.0; 3],
                        normal: [0.0; 3],
                        feature_a: 0,
                        feature_b: 0,
                    }; 2];
                    let got =
                        [0, 1].map(|w| colDistance(mirrors[w].world, ia[w], ib[w], &mut p[w]));
                    if statuses(&mirrors, got, "distance") == COL_OK {
                        assert_eq!(p[0].distance.to_bits(), p[1].distance.to_bits());
                    }
                    let got = [0, 1]
                        .map(|w| colDistance(mirrors[w].world, ia[w], ib[w], std::ptr::null_mut()));
                    assert_eq!(
                        statuses(&mirrors, got, "distance into NULL"),
                        COL_ERR_NULL_ARGUMENT
                    );
                    let got = [0, 1].map(|w| {
                        colMakeCollidable(
                            mirrors[w].world,
                            std::ptr::null(),
                            std::ptr::null_mut(),
                            std::ptr::null_mut(),
                        )
                    });
                    assert_eq!(
                        statuses(&mirrors, got, "make from NULL"),
                        COL_ERR_NULL_ARGUMENT
                    );
                }
            }
        }
    }
    for m in &mirrors {
        // SAFETY: live worlds, freed once; the recorders' vectors outlive them.
        assert_eq!(unsafe { colExit(m.world) }, COL_OK);
    }
    drop(mirrors);
}
