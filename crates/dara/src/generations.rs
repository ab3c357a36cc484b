//! How many times this thread has listed legal moves, behind the `count-generations` feature:
//! a caller's tests can then show that it lists a position's moves only as often as it means
//! to (a server, once per accepted turn). Without the feature the count compiles to nothing.

#[cfg(feature = "count-generations")]
thread_local! {
    static GENERATIONS: core::cell::Cell<u64> = const { core::cell::Cell::new(0) };
}

/// How many legal-move lists ([`crate::Position::legal_moves_into`], which
/// [`crate::Position::legal_moves`], `play`, `parse_move` and `to_move` use) this thread has
/// generated. Counting and picking moves by index ([`crate::Position::count_moves`],
/// [`crate::Position::pick_move`]) do not list them and are not counted.
///
/// # Examples
/// ```
/// use dara::{Position, Ruleset};
/// let mut pos = Position::start(Ruleset::default());
/// let before = dara::generations();
/// let legal = pos.legal_moves();
/// let m = pos.parse_move_in("c3", &legal).unwrap();
/// pos.play_listed(m, &legal).unwrap();
/// assert_eq!(dara::generations() - before, 1);
/// ```
#[cfg(feature = "count-generations")]
pub fn generations() -> u64 {
    GENERATIONS.with(core::cell::Cell::get)
}

/// Counts one generation.
#[inline(always)]
pub(crate) fn count() {
    #[cfg(feature = "count-generations")]
    GENERATIONS.with(|n| n.set(n.get() + 1));
}
