//! The clocks as the pages see them: milliseconds left and whose clock runs, from the table's
//! clock (the table alone decides how much time each player has left).

use std::time::Duration;

use dara::Colour;
use serde::Serialize;

use crate::clock::{millis, TimeControl, TimeLeft};

/// What the pages are told: milliseconds left, and whose clock runs (they count it down
/// themselves between messages).
#[derive(Debug, Clone, Serialize)]
pub struct ClockView {
    /// Time left, in ms.
    #[serde(flatten)]
    pub left: TimeLeft,
    /// Whose clock is running, if any.
    pub running: Option<Colour>,
    /// The control, e.g. `5+3`.
    pub control: String,
    /// While the side to move has not made its first move (its clock does not run before it),
    /// the ms it has left to make it before the game is aborted.
    #[serde(rename = "firstMove", skip_serializing_if = "Option::is_none")]
    pub first_move: Option<u64>,
}

impl ClockView {
    /// The view of `left` under `control`, with `running`'s clock counting down.
    pub fn new(control: TimeControl, left: TimeLeft, running: Option<Colour>) -> ClockView {
        ClockView { left, running, control: control.label(), first_move: None }
    }

    /// The same, the side to move having `within` to make its first move.
    pub fn awaiting_first_move(mut self, within: Option<Duration>) -> ClockView {
        self.first_move = within.map(millis);
        self
    }
}
