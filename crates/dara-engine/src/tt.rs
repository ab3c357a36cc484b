//! The transposition table: what earlier searches learned about a position (a bound on its
//! value, the depth it was searched to, and the best move found), shared across iterations and
//! across the moves of one game.

use dara::{Bitboard, Cell, Move};

use crate::score::Value;

/// A move in 32 bits, so that a table entry stays small: a tag, the cells, and up to two
/// captured cells (`captures=per-row` takes at most two stones with one step).
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct PackedMove(u32);

const NO_CELL: u32 = 0x7f;

impl PackedMove {
    /// No move.
    pub const NONE: PackedMove = PackedMove(0);

    /// Packs `m`.
    #[inline]
    pub fn new(m: Move) -> PackedMove {
        match m {
            Move::Put(cell) => PackedMove(1 | u32::from(cell.index()) << 2),
            Move::Pass => PackedMove(2),
            Move::Step { from, to, captures } => {
                let mut cells = captures.into_iter();
                let first = cells.next().map_or(NO_CELL, |c| u32::from(c.index()));
                let second = cells.next().map_or(NO_CELL, |c| u32::from(c.index()));
                PackedMove(
                    3 | u32::from(from.index()) << 2
                        | u32::from(to.index()) << 8
                        | first << 14
                        | second << 21,
                )
            }
        }
    }

    /// The move again, if this is one.
    pub fn unpack(self) -> Option<Move> {
        let cell = |shift: u32| Cell::from_index(((self.0 >> shift) & 0x3f) as u8);
        let capture = |shift: u32| {
            let bits = (self.0 >> shift) & 0x7f;
            if bits == NO_CELL {
                Some(Bitboard::EMPTY)
            } else {
                Cell::from_index(bits as u8).map(Bitboard::from_cell)
            }
        };
        match self.0 & 3 {
            1 => cell(2).map(Move::Put),
            2 => Some(Move::Pass),
            3 => Some(Move::Step {
                from: cell(2)?,
                to: cell(8)?,
                captures: capture(14)? | capture(21)?,
            }),
            _ => None,
        }
    }

    /// Whether this is no move.
    #[inline]
    pub fn is_none(self) -> bool {
        self.0 == 0
    }
}

/// What kind of bound a stored value is.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
#[repr(u8)]
pub enum Bound {
    /// Nothing stored.
    None = 0,
    /// The true value is at most this (every move failed low).
    Upper = 1,
    /// The true value is at least this (a move failed high).
    Lower = 2,
    /// The exact value.
    Exact = 3,
}

/// One slot of the table.
#[derive(Copy, Clone, Debug)]
pub struct Entry {
    key: u64,
    /// The best move found, or none.
    pub best: PackedMove,
    value: i16,
    /// The draft the value was searched to.
    pub depth: u8,
    bound_age: u8,
}

// Four entries to a 64-byte cache line.
const _: () = assert!(core::mem::size_of::<PackedMove>() == 4);
const _: () = assert!(core::mem::size_of::<Entry>() == 16);

const EMPTY: Entry = Entry { key: 0, best: PackedMove::NONE, value: 0, depth: 0, bound_age: 0 };

impl Entry {
    /// The stored value (relative to the stored node: see [`crate::score::to_tt`]).
    #[inline]
    pub fn value(&self) -> Value {
        Value::from(self.value)
    }

    /// The stored bound.
    #[inline]
    pub fn bound(&self) -> Bound {
        match self.bound_age & 3 {
            1 => Bound::Upper,
            2 => Bound::Lower,
            3 => Bound::Exact,
            _ => Bound::None,
        }
    }
}

/// A fixed-size table of entries, indexed by the position's key, always replacing except where a
/// deeper entry of the current search would be lost.
#[derive(Debug)]
pub struct Table {
    entries: Vec<Entry>,
    age: u8,
}

impl Table {
    /// A table of about `mib` mebibytes (at least one entry).
    pub fn new(mib: usize) -> Table {
        let count = (mib.max(1) * 1024 * 1024 / core::mem::size_of::<Entry>()).next_power_of_two();
        Table { entries: vec![EMPTY; count], age: 0 }
    }

    /// Forgets everything.
    pub fn clear(&mut self) {
        self.entries.fill(EMPTY);
        self.age = 0;
    }

    /// Marks a new search, so that its entries win over older ones.
    pub fn new_search(&mut self) {
        self.age = (self.age + 1) & 0x3f;
    }

    #[inline]
    fn index(&self, key: u64) -> usize {
        // The top bits index; the whole key is compared.
        ((u128::from(key) * self.entries.len() as u128) >> 64) as usize
    }

    /// The entry for `key`, if stored.
    #[inline]
    pub fn probe(&self, key: u64) -> Option<Entry> {
        let e = self.entries[self.index(key)];
        (e.key == key && e.bound() != Bound::None).then_some(e)
    }

    /// Stores what a search of `depth` found at `key`.
    #[inline]
    pub fn store(&mut self, key: u64, best: PackedMove, value: Value, depth: i32, bound: Bound) {
        let i = self.index(key);
        let old = &mut self.entries[i];
        let same_search = old.bound_age >> 2 == self.age;
        if old.key == key || !same_search || depth >= i32::from(old.depth) || bound == Bound::Exact
        {
            // Keep the old move when the new search found none for this same position.
            let best = if best.is_none() && old.key == key { old.best } else { best };
            *old = Entry {
                key,
                best,
                value: value.clamp(i16::MIN.into(), i16::MAX.into()) as i16,
                depth: depth.clamp(0, 255) as u8,
                bound_age: bound as u8 | self.age << 2,
            };
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use dara::{Position, Ruleset};

    #[test]
    fn moves_pack_and_unpack() {
        let rules: Ruleset = "arcade,captures=per-row".parse().unwrap();
        let pos = Position::from_text("4W1/5B/WWW1W1/4WB/1B2WB w 0 0 1", rules).unwrap();
        let mut moves = pos.legal_moves();
        moves.extend(Position::start(rules).legal_moves());
        moves.push(Move::Pass);
        for m in moves {
            assert_eq!(PackedMove::new(m).unpack(), Some(m), "{m}");
        }
    }

    #[test]
    fn store_then_probe() {
        let mut t = Table::new(1);
        let m = PackedMove::new(Move::Pass);
        t.store(42, m, -17, 5, Bound::Lower);
        let e = t.probe(42).unwrap();
        assert_eq!((e.best, e.value(), e.depth, e.bound()), (m, -17, 5, Bound::Lower));
        assert!(t.probe(43).is_none());
    }
}
