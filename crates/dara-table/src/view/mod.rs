//! What the pages are told of a game at the table: each journal event rendered with the
//! position it led to, the whole game as a snapshot, and the positions themselves ready to
//! draw (legal moves, closed cells and why). The server sends these over its sockets; a page
//! playing the computer by itself renders them with this same code compiled to WebAssembly,
//! so the page's handlers never know which it is talking to.

mod clock;
mod display;
mod event;
mod judge;
mod position;
mod record;
mod render;

pub use clock::ClockView;
pub use display::display;
pub use event::{EndView, Event, SeatView, Seats, Snapshot};
pub use judge::{Answer, Question, Verdict};
pub use position::{Hands, PositionView};
pub use record::{ReadRecord, RecordRequest};
pub use render::{replay, View};
