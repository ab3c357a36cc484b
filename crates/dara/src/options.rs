//! The options of a ruleset that take named values (`place=free`, `opening=corner`...), and the
//! one table per option that both prints and reads those names.

/// How long a run a placed stone may stand in (`place`).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Place {
    /// A placement may not make a run of three or more.
    Three,
    /// A placement may not make a run of four or more.
    Four,
    /// Any empty cell.
    Free,
}

/// What a placer with no legal cell does (`blocked`).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Blocked {
    /// Places on any empty cell.
    Any,
    /// Passes the turn.
    Pass,
}

/// Whether a step may make a run of four or more (`long`).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Long {
    /// Legal, and it captures nothing.
    Allowed,
    /// Not a legal step.
    Illegal,
}

/// Stones taken by a step that makes two rows at once (`captures`).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Captures {
    /// One stone, however many rows.
    One,
    /// One stone per row formed.
    PerRow,
}

/// Restrictions on the first placements (`opening`).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Opening {
    /// None.
    Free,
    /// The first stone of the game goes in a corner.
    Corner,
    /// No stone in the middle files during each player's first four placements.
    Centre,
}

/// The largest `quiet` value accepted: far beyond any game, small enough for any counter.
pub const MAX_QUIET: u32 = 100_000;

/// The option names, in the order of RULES.md section 4 (which is also the printing order).
pub(crate) const OPTION_NAMES: [&str; 12] = [
    "rows", "cols", "stones", "place", "blocked", "diagonal", "long", "captures", "protect",
    "lose-at", "quiet", "opening",
];

/// The values of an option and their names in ruleset notation: one table both prints and
/// reads them.
pub(crate) trait OptionValue: Copy + PartialEq + 'static {
    const NAMES: &'static [(Self, &'static str)];
}

impl OptionValue for Place {
    const NAMES: &'static [(Place, &'static str)] =
        &[(Place::Three, "3"), (Place::Four, "4"), (Place::Free, "free")];
}

impl OptionValue for Blocked {
    const NAMES: &'static [(Blocked, &'static str)] =
        &[(Blocked::Any, "any"), (Blocked::Pass, "pass")];
}

impl OptionValue for Long {
    const NAMES: &'static [(Long, &'static str)] =
        &[(Long::Allowed, "allowed"), (Long::Illegal, "illegal")];
}

impl OptionValue for Captures {
    const NAMES: &'static [(Captures, &'static str)] =
        &[(Captures::One, "one"), (Captures::PerRow, "per-row")];
}

impl OptionValue for Opening {
    const NAMES: &'static [(Opening, &'static str)] =
        &[(Opening::Free, "free"), (Opening::Corner, "corner"), (Opening::Centre, "centre")];
}

/// `diagonal` and `protect`.
impl OptionValue for bool {
    const NAMES: &'static [(bool, &'static str)] = &[(true, "yes"), (false, "no")];
}

/// The name of an option's value.
pub(crate) fn value_name<T: OptionValue>(value: T) -> &'static str {
    T::NAMES.iter().find(|(v, _)| *v == value).map_or("", |&(_, name)| name)
}
