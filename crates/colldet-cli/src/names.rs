//! Command-line names of the world's broad phases and methods, both ways, so the runner, the
//! summaries and the docs spell them alike.

use colldet_geom::io::excerpt;
use colldet_world::{BroadPhaseKind, Method};

/// Every broad phase with its command-line name.
pub const BROAD_PHASES: [(BroadPhaseKind, &str); 5] = [
    (BroadPhaseKind::SweepAndPrune, "sap"),
    (BroadPhaseKind::Grid, "grid"),
    (BroadPhaseKind::Octree, "octree"),
    (BroadPhaseKind::DynamicTree, "tree"),
    (BroadPhaseKind::AllPairs, "none"),
];

/// Every narrow-phase method with its command-line name.
pub const METHODS: [(Method, &str); 7] = [
    (Method::Auto, "auto"),
    (Method::Convex, "convex"),
    (Method::Arbitrary, "arbitrary"),
    (Method::BoxTree, "boxtree"),
    (Method::SeparatingVector, "sv"),
    (Method::Gjk, "gjk"),
    (Method::None, "none"),
];

/// The broad phase named `name` (`sap`, `grid`, `octree`, `tree`, `none`).
///
/// # Errors
/// A message naming the unknown value.
pub fn parse_broad_phase(name: &str) -> Result<BroadPhaseKind, String> {
    BROAD_PHASES
        .iter()
        .find(|(_, n)| *n == name)
        .map(|(k, _)| *k)
        .ok_or_else(|| format!("unknown broad phase `{}`", excerpt(name)))
}

/// The command-line name of a broad phase.
pub fn broad_phase_name(kind: BroadPhaseKind) -> &'static str {
    BROAD_PHASES
        .iter()
        .find(|(k, _)| *k == kind)
        .map_or("?", |(_, n)| n)
}

/// The method named `name` (`auto`, `convex`, `arbitrary`, `boxtree`, `sv`, `gjk`, `none`).
///
/// # Errors
/// A message naming the unknown value.
pub fn parse_method(name: &str) -> Result<Method, String> {
    METHODS
        .iter()
        .find(|(_, n)| *n == name)
        .map(|(m, _)| *m)
        .ok_or_else(|| format!("unknown method `{}`", excerpt(name)))
}

/// The command-line name of a method.
pub fn method_name(method: Method) -> &'static str {
    METHODS
        .iter()
        .find(|(m, _)| *m == method)
        .map_or("?", |(_, n)| n)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip_and_unknown_names_are_errors() {
        for (kind, name) in BROAD_PHASES {
            assert_eq!(parse_broad_phase(name), Ok(kind));
            assert_eq!(broad_phase_name(kind), name);
        }
        for (method, name) in METHODS {
            assert_eq!(parse_method(name), Ok(method));
            assert_eq!(method_name(method), name);
        }
        assert_eq!(
            parse_broad_phase("kd"),
            Err("unknown broad phase `kd`".to_string())
        );
        assert!(parse_method("").is_err());
    }
}
