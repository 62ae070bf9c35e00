//! Seeded moving-box scenes for the space-index tests and benchmarks, drawn from the shared
//! SplitMix64 generator: scenes of small, large, zero-size and lattice-aligned boxes that move,
//! leave and re-enter the universe, teleport, and are inserted and removed, expressed as
//! operation lists that any [`BroadPhase`] can replay.

#![allow(dead_code)]

use colldet_broad::{BroadPhase, ProxyId};
use colldet_geom::WorldAabb;
use colldet_geom::math::PointD;

pub use colldet_testkit::SplitMix64;

/// One change to a broad phase.
#[derive(Clone, Copy, Debug)]
pub enum Op {
    /// Add a proxy.
    Insert(ProxyId, WorldAabb),
    /// Move a proxy.
    Update(ProxyId, WorldAabb),
    /// Remove a proxy.
    Remove(ProxyId),
}

/// Applies `ops` in order; every op must succeed.
pub fn apply(bp: &mut dyn BroadPhase, ops: &[Op]) {
    for op in ops {
        match *op {
            Op::Insert(id, b) => bp.insert(id, &b).expect("insert"),
            Op::Update(id, b) => bp.update(id, &b).expect("update"),
            Op::Remove(id) => bp.remove(id).expect("remove"),
        }
    }
}

/// What a scene contains and how it moves. Coordinates are in universe units before `scale`.
#[derive(Clone, Copy, Debug)]
pub struct SceneOptions {
    /// Live objects (kept roughly constant under churn).
    pub count: usize,
    /// The universe is `[lo, hi]^3` (times `scale`).
    pub universe: (f64, f64),
    /// Typical cell width, for sizing small and lattice objects.
    pub cell: f64,
    /// Fraction of objects spanning many cells (half extent up to 0.4 of the universe; a few
    /// larger than the universe).
    pub large_fraction: f64,
    /// Fraction of zero-size (point) boxes.
    pub zero_fraction: f64,
    /// Fraction of boxes on the lattice of half cells (faces exactly on cell boundaries and on
    /// each other's faces), moving by lattice steps.
    pub lattice_fraction: f64,
    /// Per-object, per-frame probability of moving.
    pub move_probability: f64,
    /// Per-object, per-frame probability of a removal (replaced by an insertion).
    pub churn: f64,
    /// Per-object, per-frame probability of a jump elsewhere, sometimes far outside.
    pub teleport: f64,
    /// How far outside the universe objects roam, as a fraction of its extent: they bounce back
    /// at that distance and spawn up to a quarter of it outside.
    pub roam: f64,
    /// Multiplies every coordinate (a power of two keeps lattice coordinates exact).
    pub scale: f64,
}

impl Default for SceneOptions {
    fn default() -> Self {
        Self {
            count: 500,
            universe: (0.0, 64.0),
            cell: 4.0,
            large_fraction: 0.04,
            zero_fraction: 0.05,
            lattice_fraction: 0.3,
            move_probability: 0.8,
            churn: 0.01,
            teleport: 0.003,
            roam: 0.5,
            scale: 1.0,
        }
    }
}

#[derive(Clone, Debug)]
struct Body {
    id: ProxyId,
    center: [f64; 3],
    half: [f64; 3],
    velocity: [f64; 3],
}

/// A deterministic moving scene that emits operation lists.
#[derive(Clone, Debug)]
pub struct MovingScene {
    options: SceneOptions,
    rng: SplitMix64,
    bodies: Vec<Body>,
    free_ids: Vec<ProxyId>,
    next_high_id: ProxyId,
    next_low_id: ProxyId,
}

impl MovingScene {
    /// A scene; call [`MovingScene::populate`] for the initial insertions.
    pub fn new(options: SceneOptions, seed: u64) -> Self {
        Self {
            options,
            rng: SplitMix64(seed),
            bodies: Vec::new(),
            free_ids: Vec::new(),
            next_high_id: ProxyId::MAX,
            next_low_id: 0,
        }
    }

    /// The world box of the universe (scaled).
    pub fn universe(&self) -> WorldAabb {
        let (lo, hi) = self.options.universe;
        let s = self.options.scale;
        WorldAabb::new(
            PointD::new(lo * s, lo * s, lo * s),
            PointD::new(hi * s, hi * s, hi * s),
        )
    }

    /// Number of live objects.
    pub fn len(&self) -> usize {
        self.bodies.len()
    }

    /// Insertions of the initial objects.
    pub fn populate(&mut self) -> Vec<Op> {
        (0..self.options.count).map(|_| self.spawn()).collect()
    }

    /// One frame: moves, teleports, removals and insertions.
    pub fn step(&mut self) -> Vec<Op> {
        let mut ops = Vec::new();
        let o = self.options;
        let (lo, hi) = o.universe;
        let margin = o.roam * (hi - lo);
        let mut i = 0;
        while i < self.bodies.len() {
            if self.rng.chance(o.churn) {
                let body = self.bodies.swap_remove(i);
                ops.push(Op::Remove(body.id));
                self.free_ids.push(body.id);
                continue;
            }
            if self.rng.chance(o.teleport) {
                let far = self.rng.chance(0.3);
                let body = &mut self.bodies[i];
                for a in 0..3 {
                    body.center[a] = if far {
                        snap(self.rng.range(hi + 10.0 * margin, hi + 100.0 * margin))
                    } else {
                        snap(self.rng.range(lo - margin, hi + margin))
                    };
                }
                let b = self.bodies[i].aabb(o.scale);
                ops.push(Op::Update(self.bodies[i].id, b));
            } else if self.rng.chance(o.move_probability) {
                let body = &mut self.bodies[i];
                for a in 0..3 {
                    body.center[a] += body.velocity[a];
                    if body.center[a] > hi + margin {
                        body.velocity[a] = -body.velocity[a].abs();
                    } else if body.center[a] < lo - margin {
                        body.velocity[a] = body.velocity[a].abs();
                    }
                }
                let b = self.bodies[i].aabb(o.scale);
                ops.push(Op::Update(self.bodies[i].id, b));
            }
            i += 1;
        }
        while self.bodies.len() < o.count {
            ops.push(self.spawn());
        }
        ops
    }

    fn fresh_id(&mut self) -> ProxyId {
        if !self.free_ids.is_empty() && self.rng.chance(0.5) {
            let k = self.rng.below_u64(self.free_ids.len() as u64) as usize;
            return self.free_ids.swap_remove(k);
        }
        if self.rng.chance(0.2) {
            self.next_high_id -= 1;
            self.next_high_id + 1
        } else {
            self.next_low_id += 1;
            self.next_low_id - 1
        }
    }

    fn spawn(&mut self) -> Op {
        let o = self.options;
        let (lo, hi) = o.universe;
        let extent = hi - lo;
        let margin = o.roam * extent;
        let id = self.fresh_id();
        let rng = &mut self.rng;
        let lattice = rng.chance(o.lattice_fraction);
        let mut body = Body {
            id,
            center: [0.0; 3],
            half: [0.0; 3],
            velocity: [0.0; 3],
        };
        let kind = rng.next_f64();
        for a in 0..3 {
            if lattice {
                // Centres and half extents on multiples of half a cell: faces on cell boundaries
                // and on each other's faces.
                let h = 0.5 * o.cell;
                let steps = (extent / h) as u64;
                body.center[a] = lo + h * rng.below_u64(steps + 1) as f64;
                body.half[a] = h * rng.below_u64(3) as f64;
                body.velocity[a] = 0.25 * o.cell * (rng.below_u64(5) as f64 - 2.0);
            } else {
                body.center[a] = rng.range(lo - 0.25 * margin, hi + 0.25 * margin);
                body.half[a] = if kind < o.zero_fraction {
                    0.0
                } else if kind < o.zero_fraction + o.large_fraction {
                    if rng.chance(0.1) {
                        rng.range(0.5 * extent, extent)
                    } else {
                        rng.range(o.cell, 0.4 * extent)
                    }
                } else {
                    rng.range(0.02 * o.cell, 0.6 * o.cell)
                };
                body.velocity[a] = rng.range(-0.3, 0.3) * o.cell;
            }
        }
        let b = body.aabb(o.scale);
        self.bodies.push(body);
        Op::Insert(id, b)
    }
}

/// Rounds to a multiple of 1/4 so teleported lattice boxes stay on the lattice.
fn snap(x: f64) -> f64 {
    (x * 4.0).round() / 4.0
}

impl Body {
    fn aabb(&self, scale: f64) -> WorldAabb {
        let lo = [0, 1, 2].map(|a| (self.center[a] - self.half[a]) * scale);
        let hi = [0, 1, 2].map(|a| (self.center[a] + self.half[a]) * scale);
        WorldAabb::new(PointD::from(lo), PointD::from(hi))
    }
}
