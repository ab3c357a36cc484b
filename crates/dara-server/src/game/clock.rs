//! The clocks as the clients see them. The clock itself is the table's (`dara_table::clock`):
//! the server alone decides how much time each player has left.

use dara::Colour;
use serde::Serialize;

pub use dara_table::clock::{TimeControl, TimeLeft};

/// What the clients are told: milliseconds left, and whose clock runs (they count it down
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
}

impl ClockView {
    /// The view of `left` under `control`, with `running`'s clock counting down.
    pub fn new(control: TimeControl, left: TimeLeft, running: Option<Colour>) -> ClockView {
        ClockView { left, running, control: control.label() }
    }
}
