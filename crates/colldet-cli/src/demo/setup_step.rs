//! The steps of a demo's setup, reported before the first frame so that a large setup (thousands
//! of objects to place without overlap take seconds) is not silent. [`super::Demo::with_progress`]
//! and [`super::Demo::from_preset_with_progress`] call back with them in order.

/// One step of a demo's setup.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum SetupStep {
    /// `done` of `total` meshes are built (a preset reports its whole setup, meshes and start
    /// poses, as one step with `done == total`).
    Meshes {
        /// Meshes built so far.
        done: usize,
        /// Meshes to build.
        total: usize,
    },
    /// `done` of `total` objects are in the world.
    Objects {
        /// Objects added so far.
        done: usize,
        /// Objects to add.
        total: usize,
    },
    /// A placement check (Chung-Wang demo): in attempt `attempt` (from 1; each attempt after
    /// the first grows the box by 5%) with box side `side`, check `round` (from 1) found
    /// `colliding` pairs, whose objects are placed again.
    Placing {
        /// Attempt, from 1.
        attempt: usize,
        /// Box side of this attempt.
        side: f64,
        /// Check within the attempt, from 1.
        round: usize,
        /// Colliding pairs that check found (0: placement done).
        colliding: usize,
    },
    /// The setup is done: `objects` objects placed without overlap in a box of side `side`.
    Ready {
        /// Objects in the world.
        objects: usize,
        /// Box side (cage interior for presets).
        side: f64,
    },
}

impl SetupStep {
    /// What the step says, e.g. `placing: box side 25.700, check 12, 1021 colliding pairs`.
    pub fn text(&self) -> String {
        match *self {
            Self::Meshes { done, total } => format!("meshes {done}/{total}"),
            Self::Objects { done, total } => format!("objects {done}/{total} added"),
            Self::Placing {
                attempt,
                side,
                round,
                colliding,
            } => format!(
                "placing without overlap: attempt {attempt}, box side {side:.3}, check {round}, \
                 {colliding} colliding pairs"
            ),
            Self::Ready { objects, side } => {
                format!("ready: {objects} objects without overlap, box side {side:.3}")
            }
        }
    }

    /// True for the steps a log keeps: each kind's last count, the first check of each
    /// placement attempt, and the end.
    pub fn is_milestone(&self) -> bool {
        match *self {
            Self::Meshes { done, total } | Self::Objects { done, total } => done == total,
            Self::Placing { round, .. } => round == 1,
            Self::Ready { .. } => true,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn texts_and_milestones() {
        let placing = SetupStep::Placing {
            attempt: 2,
            side: 25.7,
            round: 12,
            colliding: 1021,
        };
        assert_eq!(
            placing.text(),
            "placing without overlap: attempt 2, box side 25.700, check 12, 1021 colliding pairs"
        );
        assert!(!placing.is_milestone());
        let first = SetupStep::Placing {
            attempt: 2,
            side: 25.7,
            round: 1,
            colliding: 1021,
        };
        assert!(first.is_milestone());
        let objects = SetupStep::Objects {
            done: 10,
            total: 10,
        };
        assert_eq!(objects.text(), "objects 10/10 added");
        assert!(objects.is_milestone());
        assert!(!SetupStep::Meshes { done: 3, total: 8 }.is_milestone());
        assert_eq!(
            SetupStep::Ready {
                objects: 5,
                side: 2.0
            }
            .text(),
            "ready: 5 objects without overlap, box side 2.000"
        );
    }
}
