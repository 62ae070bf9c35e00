//! Value parsers of the `colldet` options: bounded whole numbers and the named choices. Each
//! message names the option and what it accepts, and quotes the given text through
//! [`excerpt`] (bounded, control characters escaped).

use colldet_geom::io::excerpt;
use colldet_world::{BroadPhaseKind, Method};

use crate::demo::{DemoShape, Preset};
use crate::names::{BROAD_PHASES, METHODS, parse_broad_phase, parse_method};

/// The accepted range of a numeric option.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Bound {
    /// The option, as typed (`--frames`).
    pub flag: &'static str,
    /// Smallest accepted value.
    pub min: u64,
    /// Largest accepted value.
    pub max: u64,
    /// What a special value means, shown with the range (`0 means all cores`).
    pub note: Option<&'static str>,
}

impl Bound {
    /// `min to max`, with the note in parentheses.
    pub fn range(&self) -> String {
        match self.note {
            Some(note) => format!("{} to {} ({note})", self.min, self.max),
            None => format!("{} to {}", self.min, self.max),
        }
    }

    /// `text` as a number in range, or the message that names the option and the range.
    ///
    /// # Errors
    /// Text that is not a whole number, or one outside `min..=max`.
    pub fn parse(&self, text: &str) -> Result<u64, String> {
        // i128 holds every u64 and the negatives, so `-1` and `1e30`-sized integers are reported
        // as out of range rather than as not numbers.
        match text.parse::<i128>() {
            Ok(n) if (i128::from(self.min)..=i128::from(self.max)).contains(&n) => Ok(n as u64),
            Ok(n) => Err(format!(
                "{}: {n} is out of range: {}",
                self.flag,
                self.range()
            )),
            Err(_) => Err(format!(
                "{}: `{}` is not a valid number: {}",
                self.flag,
                excerpt(text),
                self.range()
            )),
        }
    }

    /// A clap value parser for this bound yielding `T` (which must hold `max`).
    pub fn parser<T>(self) -> impl Fn(&str) -> Result<T, String> + Clone + Send + Sync + 'static
    where
        T: TryFrom<u64>,
    {
        move |text| {
            let n = self.parse(text)?;
            T::try_from(n).map_err(|_| format!("{}: {n} does not fit", self.flag))
        }
    }
}

/// `text` as a broad phase, or a message listing the names.
///
/// # Errors
/// An unknown name.
pub fn broad_phase(text: &str) -> Result<BroadPhaseKind, String> {
    let names: Vec<&str> = BROAD_PHASES.iter().map(|(_, n)| *n).collect();
    parse_broad_phase(text).map_err(|e| format!("{e} ({})", names.join(", ")))
}

/// `text` as a narrow-phase method, or a message listing the names.
///
/// # Errors
/// An unknown name.
pub fn method(text: &str) -> Result<Method, String> {
    let names: Vec<&str> = METHODS.iter().map(|(_, n)| *n).collect();
    parse_method(text).map_err(|e| format!("{e} ({})", names.join(", ")))
}

/// `text` as a demo preset, or a message listing the names.
///
/// # Errors
/// An unknown name.
pub fn preset(text: &str) -> Result<Preset, String> {
    Preset::from_name(text).ok_or_else(|| {
        let names: Vec<&str> = Preset::ALL.iter().map(|p| p.name()).collect();
        format!("unknown preset `{}` ({})", excerpt(text), names.join(", "))
    })
}

/// `text` as a demo shape, or a message listing the names.
///
/// # Errors
/// An unknown name.
pub fn shape(text: &str) -> Result<DemoShape, String> {
    DemoShape::from_name(text).ok_or_else(|| {
        let names: Vec<&str> = DemoShape::ALL.iter().map(|s| s.name()).collect();
        format!("unknown shape `{}` ({})", excerpt(text), names.join(", "))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    const FRAMES: Bound = Bound {
        flag: "--frames",
        min: 1,
        max: 1000,
        note: None,
    };

    #[test]
    fn bounds_accept_their_range_and_name_the_option_otherwise() {
        assert_eq!(FRAMES.parse("1"), Ok(1));
        assert_eq!(FRAMES.parse("1000"), Ok(1000));
        assert_eq!(
            FRAMES.parse("0"),
            Err("--frames: 0 is out of range: 1 to 1000".to_string())
        );
        assert_eq!(
            FRAMES.parse("-3"),
            Err("--frames: -3 is out of range: 1 to 1000".to_string())
        );
        assert_eq!(
            FRAMES.parse("99999999999999999999999"),
            Err("--frames: 99999999999999999999999 is out of range: 1 to 1000".to_string())
        );
        assert_eq!(
            FRAMES.parse("ten\u{1b}"),
            Err("--frames: `ten\\u{1b}` is not a valid number: 1 to 1000".to_string())
        );
        let threads = Bound {
            flag: "--threads",
            min: 0,
            max: 4,
            note: Some("0 means all cores"),
        };
        assert_eq!(threads.parse("0"), Ok(0));
        assert_eq!(
            threads.parse("5"),
            Err("--threads: 5 is out of range: 0 to 4 (0 means all cores)".to_string())
        );
        let seed = Bound {
            flag: "--seed",
            min: 0,
            max: u64::MAX,
            note: None,
        };
        assert_eq!(seed.parser::<u64>()("18446744073709551615"), Ok(u64::MAX));
        assert!(seed.parser::<u64>()("18446744073709551616").is_err());
        assert_eq!(
            FRAMES.parser::<u8>()("999"),
            Err("--frames: 999 does not fit".into())
        );
    }

    #[test]
    fn names_parse_and_unknown_names_list_the_choices() {
        assert_eq!(broad_phase("grid"), Ok(BroadPhaseKind::Grid));
        assert_eq!(
            broad_phase("kd"),
            Err("unknown broad phase `kd` (sap, grid, octree, tree, none)".to_string())
        );
        assert_eq!(method("sv"), Ok(Method::SeparatingVector));
        assert!(
            method("fast")
                .unwrap_err()
                .starts_with("unknown method `fast` (auto, ")
        );
        assert_eq!(preset("one-mover"), Ok(Preset::OneMover));
        assert_eq!(
            preset("zoo"),
            Err("unknown preset `zoo` (thesis-zoo, one-mover)".to_string())
        );
        assert_eq!(shape("rod"), Ok(DemoShape::Rod));
        assert_eq!(
            shape("cube\u{1b}[2J"),
            Err("unknown shape `cube\\u{1b}[2J` (ellipsoid, rod, plate, mixed)".to_string())
        );
    }
}
