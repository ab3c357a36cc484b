//! A set of solved materials for one ruleset: built, saved, loaded, and asked about positions.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use dara::{Move, MoveList, Phase, Position, Ruleset, Status};

use crate::build::{build_pair, BuildReport, Progress};
use crate::error::ProbeError;
use crate::file::{self, TableFileError};
use crate::material::Material;
use crate::rules::{TableRules, UnsupportedRules};
use crate::table::Table;
use crate::value::{Outcome, Value, Wdl};

/// The solved materials of one ruleset.
#[derive(Clone, Debug)]
pub struct Tablebase {
    rules: TableRules,
    tables: BTreeMap<Material, Table>,
}

/// What a move is worth, for the side that plays it.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct MoveValue {
    /// The move.
    pub mv: Move,
    /// Its result and distance to capture, counting the move itself.
    pub value: Value,
    /// Its result under the quiet-plies limit from the position's counter.
    pub outcome: Outcome,
}

impl Tablebase {
    /// No tables yet, for a ruleset the tables solve.
    ///
    /// # Errors
    /// [`UnsupportedRules`] if the ruleset is not solved.
    pub fn new(rules: Ruleset) -> Result<Tablebase, UnsupportedRules> {
        Ok(Tablebase { rules: TableRules::new(rules)?, tables: BTreeMap::new() })
    }

    /// The ruleset and its board.
    pub fn rules(&self) -> &TableRules {
        &self.rules
    }

    /// The solved materials, smallest first.
    pub fn materials(&self) -> impl Iterator<Item = Material> + '_ {
        self.tables.keys().copied()
    }

    /// A solved material's table.
    pub fn table(&self, material: Material) -> Option<&Table> {
        self.tables.get(&material)
    }

    /// The most stones of any solved material for which every smaller material is solved too.
    pub fn stones(&self) -> u8 {
        let lose_at = self.rules.ruleset().lose_at();
        (2 * (lose_at + 1)..=self.rules.board().cells() as u8)
            .take_while(|&n| {
                Material::up_to(n, lose_at).iter().all(|m| self.tables.contains_key(m))
            })
            .last()
            .unwrap_or(0)
    }

    /// Solves every material of at most `stones` stones not solved yet, smallest first, with
    /// `threads` threads; `after` gets each new table (to save it) with its costs.
    pub fn build(
        &mut self,
        stones: u8,
        threads: usize,
        progress: &dyn Progress,
        mut after: impl FnMut(&Table, &BuildReport),
    ) {
        for material in Material::up_to(stones, self.rules.ruleset().lose_at()) {
            if self.tables.contains_key(&material) {
                continue;
            }
            for (table, report) in build_pair(&self.rules, self, material, threads, progress) {
                after(&table, &report);
                self.tables.insert(table.material(), table);
            }
        }
    }

    /// Adds a table (built or loaded for this ruleset's board).
    pub fn insert(&mut self, table: Table) {
        self.tables.insert(table.material(), table);
    }

    /// The file a material's table is kept in under `dir`.
    pub fn path(&self, dir: &Path, material: Material) -> PathBuf {
        file::path(dir, &self.rules, material)
    }

    /// Writes a table into `dir`; returns the bytes written.
    ///
    /// # Errors
    /// The file could not be written.
    pub fn save(&self, dir: &Path, table: &Table) -> Result<u64, TableFileError> {
        file::save(dir, &self.rules, table)
    }

    /// Loads every table of materials up to `stones` stones found in `dir`, smallest first
    /// (a material without a file is skipped: its positions are simply not in the tables).
    /// Returns how many were loaded.
    ///
    /// # Errors
    /// A file that exists but does not match (ruleset, material, size, checksum) or cannot be
    /// read.
    pub fn load_dir(&mut self, dir: &Path, stones: u8) -> Result<usize, TableFileError> {
        let mut loaded = 0;
        for material in Material::up_to(stones, self.rules.ruleset().lose_at()) {
            let path = self.path(dir, material);
            if !path.exists() {
                continue;
            }
            let table = file::read(&path, &self.rules, material)?;
            self.tables.insert(material, table);
            loaded += 1;
        }
        Ok(loaded)
    }

    /// The entry of the position with `mover` to move against `other` (table cell masks), if its
    /// material is solved.
    #[inline]
    pub fn value_of_masks(&self, material: Material, mover: u64, other: u64) -> Option<Value> {
        let table = self.tables.get(&material)?;
        Some(table.value(table.index.stored(self.rules.board(), mover, other)))
    }

    /// Whether positions of `rules` can be looked up here: the same movement rules and board.
    pub fn applies_to(&self, rules: &Ruleset) -> bool {
        rules == self.rules.ruleset()
            || TableRules::new(*rules).is_ok_and(|r| r.table_name() == self.rules.table_name())
    }

    /// The result under the quiet-plies limit for a position of a ruleset known to apply
    /// ([`Tablebase::applies_to`]), or `None` if it is not a movement position of a solved
    /// material: the fast path for a search, which asks at every node.
    #[inline]
    pub fn lookup(&self, pos: &Position) -> Option<Outcome> {
        if pos.phase() != Phase::Movement {
            return None;
        }
        let side = pos.side();
        let material = Material::new(pos.stones_on_board(side), pos.stones_on_board(!side));
        let table = self.tables.get(&material)?;
        let (mover, other) = self.rules.masks(pos);
        let value = table.value(table.index.stored(self.rules.board(), mover, other));
        Some(value.under_limit(pos.quiet(), self.rules.limit()))
    }

    /// The table entry for a movement position (without the quiet-plies limit).
    ///
    /// # Errors
    /// A [`ProbeError`] saying why the position is not in the tables.
    pub fn probe(&self, pos: &Position) -> Result<Value, ProbeError> {
        // Rulesets that differ only in what the movement phase never sees share tables.
        if !self.applies_to(pos.rules()) {
            return Err(ProbeError::OtherRules {
                position: pos.rules().to_string(),
                tables: self.rules.table_name(),
            });
        }
        if pos.phase() != Phase::Movement {
            return Err(ProbeError::Placement);
        }
        if let Status::Won { .. } = pos.status() {
            if pos.stones_on_board(pos.side()) <= pos.rules().lose_at() {
                return Err(ProbeError::Over(pos.status()));
            }
        }
        let (mover, other) = self.rules.masks(pos);
        let material = Material::new(mover.count_ones() as u8, other.count_ones() as u8);
        self.value_of_masks(material, mover, other)
            .ok_or(ProbeError::NotSolved { material, stones: self.stones() })
    }

    /// The result under the quiet-plies limit, from the position's own counter.
    ///
    /// # Errors
    /// As [`Tablebase::probe`].
    pub fn probe_outcome(&self, pos: &Position) -> Result<Outcome, ProbeError> {
        Ok(self.probe(pos)?.under_limit(pos.quiet(), self.rules.limit()))
    }

    /// Every legal move with its value, best first under the quiet-plies limit from the
    /// position's counter: quickest win, then draws (those that win without the limit first,
    /// those that lose without it last), then the slowest loss.
    ///
    /// # Errors
    /// As [`Tablebase::probe`], for the position or for a position a move leads to.
    pub fn rank_moves(&self, pos: &Position) -> Result<Vec<MoveValue>, ProbeError> {
        self.probe(pos)?;
        let limit = self.rules.limit();
        let far = limit.map_or(1, |l| (l + 1) as u16);
        let mut moves = MoveList::new();
        pos.legal_moves_into(&mut moves);
        let mut ranked = Vec::with_capacity(moves.len());
        for mv in moves {
            let child = pos.after(mv);
            let value = if child.stones_on_board(child.side()) <= pos.rules().lose_at() {
                Value { wdl: Wdl::Win, dtc: 1 }
            } else {
                let after = self.probe(&child)?;
                let wdl = after.wdl.flipped();
                let dtc = match (mv.is_capture(), after.under_limit(0, limit)) {
                    (false, _) => after.dtc + 1,
                    (true, Outcome::Draw) if wdl != Wdl::Draw => far,
                    (true, _) => 1,
                };
                Value { wdl, dtc: if wdl == Wdl::Draw { 0 } else { dtc } }
            };
            let outcome = value.under_limit(pos.quiet(), limit);
            ranked.push(MoveValue { mv, value, outcome });
        }
        ranked.sort_by_key(|m| rank_key(m.value, m.outcome));
        Ok(ranked)
    }
}

/// Smaller is better for the side to move.
fn rank_key(value: Value, outcome: Outcome) -> (u8, i32) {
    let dtc = i32::from(value.dtc);
    match outcome {
        Outcome::Win(d) => (0, i32::from(d)),
        Outcome::Draw => match value.wdl {
            Wdl::Win => (1, dtc),
            Wdl::Draw => (2, 0),
            Wdl::Loss => (3, -dtc),
        },
        Outcome::Loss(d) => (4, -i32::from(d)),
    }
}
