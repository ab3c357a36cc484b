//! Who sits in a seat at the table.

use dara_engine::level::Level;

/// Who sits in a seat. `K` is what stands in for a person: the server keeps the keyed hash of
/// the token that holds the seat; a page playing on its own needs nothing (`()`). The table
/// never looks inside it: who holds which seat is the shell's question.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Seat<K> {
    /// Nobody yet: the first to open the invite link (or sit at the table) takes it.
    Open,
    /// A person.
    Human(K),
    /// The engine.
    Computer(Level),
}

impl<K> Seat<K> {
    /// Whether nobody sits here yet.
    pub fn is_open(&self) -> bool {
        matches!(self, Seat::Open)
    }

    /// Whether a person sits here.
    pub fn is_human(&self) -> bool {
        matches!(self, Seat::Human(_))
    }

    /// The computer's level, if it sits here.
    pub fn computer(&self) -> Option<Level> {
        match self {
            Seat::Computer(level) => Some(*level),
            _ => None,
        }
    }
}
