//! Where an arena is in its life.

use serde::{Deserialize, Serialize};

/// Before, during or after.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Phase {
    /// Announced: players may join (and pause, or leave for good), nobody is paired yet.
    Waiting,
    /// Running: free players are paired every few seconds.
    Running,
    /// Over: the standings are final and the podium known.
    Finished,
}
