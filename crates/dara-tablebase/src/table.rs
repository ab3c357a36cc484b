//! One solved material: its entries in stored order.

use crate::index::MaterialIndex;
use crate::material::Material;
use crate::value::Value;

/// The entries of one material, one per stored position ([`MaterialIndex::stored`]).
#[derive(Clone, Debug)]
pub struct Table {
    pub(crate) index: MaterialIndex,
    /// Entries as [`Value::to_u16`] gives them.
    pub(crate) entries: Vec<u16>,
}

impl Table {
    /// The material.
    pub fn material(&self) -> Material {
        self.index.material()
    }

    /// The numbering of the positions.
    pub fn index(&self) -> &MaterialIndex {
        &self.index
    }

    /// Stored positions.
    pub fn len(&self) -> u64 {
        self.entries.len() as u64
    }

    /// Whether there are no positions (never, for a material that fits the board).
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// The entry of stored position `stored`.
    #[inline]
    pub fn value(&self, stored: u64) -> Value {
        Value::from_u16(self.entries[stored as usize])
    }

    /// How many losses, draws and wins (in that order).
    pub fn counts(&self) -> [u64; 3] {
        let mut counts = [0u64; 3];
        for &e in &self.entries {
            counts[Value::from_u16(e).wdl as usize] += 1;
        }
        counts
    }

    /// The longest distance to capture.
    pub fn longest_dtc(&self) -> u16 {
        self.entries.iter().map(|&e| Value::from_u16(e).dtc).max().unwrap_or(0)
    }
}
