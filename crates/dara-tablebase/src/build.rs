//! The retrograde builder: every position of a material solved from the positions it leads to.
//!
//! Materials are built smallest first, a material together with its flipped twin (`3v4` with
//! `4v3`), since a quiet step leads from one to the other and a capture leads to a smaller,
//! already solved material. In the builder's numbering of the pair (`index::WorkIndex`: every
//! position, mirror images apart, the other side's stones first):
//!
//! 1. One forward pass with the rules crate's move lists settles what the captures decide and
//!    counts each position's quiet steps. A capture into a position the opponent loses wins in 1;
//!    one into a position the opponent wins loses in 1; under a quiet-plies limit `L`, a capture
//!    into a cursed win or blessed loss counts `L + 1` (see [`crate::Dtc`]). A position without
//!    a step loses in 1.
//! 2. Then level by level, `h = 1, 2, ...`: every position decided at distance `h` is taken back
//!    one quiet step ([`crate::unmove`]). A loss at `h` makes each predecessor a win at `h + 1`
//!    (if nothing decided it sooner); a win at `h` takes one from each predecessor's count of
//!    unrefuted steps, and a predecessor left with none, and no capture that saves it, loses at
//!    `h + 1` (or at `L + 1` if a capture into a blessed loss holds out that long). Distances
//!    only grow from level to level, so the first decision is the best one.
//! 3. What is left undecided is a draw.
//!
//! Both cores: each pass shares the positions out in chunks; a position's entry and work byte
//! are one atomic word (one cache line to touch, not two), and the only writes two threads can
//! race on are a win or a loss for the same position, which cannot both be true.

use std::collections::BTreeMap;
use std::sync::atomic::{AtomicU32, Ordering};
use std::sync::Mutex;
use std::time::{Duration, Instant};

use dara::{Bitboard, Move, MoveList};

use crate::board::Board;
use crate::index::{MaterialIndex, WorkIndex};
use crate::material::Material;
use crate::parallel::for_chunks;
use crate::rules::TableRules;
use crate::table::Table;
use crate::tablebase::Tablebase;
use crate::unmove::for_each_quiet_predecessor;
use crate::value::{Outcome, Wdl, DTC_MASK, LOSS, WIN};

/// The low bits of a position's work byte: quiet steps not yet refuted.
const COUNT: u8 = 0x1f;
/// A capture saves the position from losing (it draws, or wins only without the limit).
const NO_LOSS: u8 = 0x20;
/// A capture into a blessed loss: if the position loses, it holds out `L + 1` plies.
const HOLDS_OUT: u8 = 0x40;
/// A capture into a cursed win: if nothing wins sooner, the position wins at `L + 1`.
const CURSED_WIN: u8 = 0x80;

/// Positions per chunk of work.
const CHUNK: u64 = 1 << 14;

/// A position's word: its entry ([`crate::Value`]'s two-byte form) in the low bits, its work
/// byte above.
const ENTRY: u32 = 0xffff;
const FLAGS_SHIFT: u32 = 16;
/// One unrefuted quiet step in a position's word.
const ONE_STEP: u32 = 1 << FLAGS_SHIFT;

/// In a list of decided positions (which hold listed numbers, `WorkIndex::listed`), the mark of
/// a loss (else a win): the pass that takes the position back then need not read its entry.
const LOST: u32 = 1 << 31;

/// What the builder is doing, for a progress display.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Stage {
    /// The forward pass over a material's positions.
    Captures(Material),
    /// Taking back steps from the positions decided at this distance.
    Level(Material, u16),
}

/// Where the builder reports its progress. Every method has a default that does nothing.
pub trait Progress: Sync {
    /// A stage begins, with `work` positions to go through.
    fn stage(&self, _stage: Stage, _work: u64) {}
    /// `done` more positions of the current stage are through.
    fn advance(&self, _done: u64) {}
}

/// A progress display that shows nothing.
#[derive(Debug)]
pub struct Silent;
impl Progress for Silent {}

/// What building a material cost.
#[derive(Clone, Debug)]
pub struct BuildReport {
    /// The material.
    pub material: Material,
    /// Positions in the full index (both mirror images and all).
    pub positions: u64,
    /// Positions kept in the table.
    pub stored: u64,
    /// Losses, draws and wins among the stored positions.
    pub counts: [u64; 3],
    /// The longest distance to capture.
    pub longest_dtc: u16,
    /// Wall time for the material (a material built with its twin shares the time evenly).
    pub time: Duration,
}

/// The work arrays of one material while its pair is built.
struct Work {
    index: MaterialIndex,
    order: WorkIndex,
    /// Per position in the builder's numbering: entry and work byte (see [`ENTRY`]).
    words: Vec<AtomicU32>,
    /// Positions decided at each distance (numbers, [`LOST`] marking the losses), waiting to be
    /// taken back: lists instead of a scan of the whole table per distance, which cost more than
    /// the rest of the build.
    decided: Mutex<BTreeMap<u16, Vec<u32>>>,
    /// Positions (listed numbers) that win at `L + 1` by a capture into a cursed position unless
    /// they win sooner.
    cursed: Mutex<Vec<u32>>,
}

impl Work {
    fn new(rules: &TableRules, material: Material) -> Work {
        let index = MaterialIndex::new(rules.board(), material);
        let order = WorkIndex::new(rules.board(), material);
        assert!(
            order.len() < u64::from(LOST),
            "{material} has more positions than the builder numbers ({})",
            order.len()
        );
        let len = order.len() as usize;
        Work {
            index,
            order,
            words: (0..len).map(|_| AtomicU32::new(0)).collect(),
            decided: Mutex::new(BTreeMap::new()),
            cursed: Mutex::new(Vec::new()),
        }
    }

    /// Files a thread's decisions under their distances.
    fn file(&self, found: &mut Vec<(u16, u32)>) {
        if found.is_empty() {
            return;
        }
        let mut decided = self.decided.lock().expect("no panic holds the lock");
        for (dtc, i) in found.drain(..) {
            decided.entry(dtc).or_default().push(i);
        }
    }

    fn take(&self, dtc: u16) -> Vec<u32> {
        self.decided.lock().expect("no panic holds the lock").remove(&dtc).unwrap_or_default()
    }

    fn furthest(&self) -> u16 {
        let decided = self.decided.lock().expect("no panic holds the lock");
        decided.keys().next_back().copied().unwrap_or(0)
    }

    /// Sets position `i`'s entry to `value` unless something decided it already; whether it did.
    #[inline]
    fn decide(&self, i: usize, value: u16) -> bool {
        let word = &self.words[i];
        let mut now = word.load(Ordering::Relaxed);
        loop {
            if now & ENTRY != 0 {
                return false;
            }
            match word.compare_exchange_weak(
                now,
                now | u32::from(value),
                Ordering::Relaxed,
                Ordering::Relaxed,
            ) {
                Ok(_) => return true,
                Err(seen) => now = seen,
            }
        }
    }

    /// The entries in stored order: for each class of mover sets, its representative against
    /// every placement of the other side, looked up in the builder's numbering.
    fn stored_entries(&self, threads: usize) -> Vec<u16> {
        let run = self.index.full_of_stored_run(0);
        let per_class = (run.end - run.start) as usize;
        let mut entries = vec![0u16; self.index.stored_len() as usize];
        let other_stones = self.index.material().other;
        let first_other = (1u64 << other_stones) - 1;
        let classes_per_thread = self.index.classes().div_ceil(threads.max(1)).max(1);
        std::thread::scope(|scope| {
            for (part, chunk) in entries.chunks_mut(classes_per_thread * per_class).enumerate() {
                scope.spawn(move || {
                    for (k, run) in chunk.chunks_mut(per_class).enumerate() {
                        let mover = self.index.representative_set(part * classes_per_thread + k);
                        let mut squeezed = first_other;
                        for entry in run {
                            let other = crate::combination::spread(squeezed, mover);
                            let i = self.order.index(mover, other) as usize;
                            *entry = (self.words[i].load(Ordering::Relaxed) & ENTRY) as u16;
                            squeezed = crate::combination::next_combination(squeezed);
                        }
                    }
                });
            }
        });
        entries
    }
}

/// Solves `material` and its flipped twin, given every smaller material in `solved`, with
/// `threads` threads. Returns the tables (one if the material is its own twin) and their costs.
///
/// # Panics
/// If a smaller material is missing from `solved`: build with [`crate::Tablebase::build`],
/// which goes smallest first.
pub fn build_pair(
    rules: &TableRules,
    solved: &Tablebase,
    material: Material,
    threads: usize,
    progress: &dyn Progress,
) -> Vec<(Table, BuildReport)> {
    let started = Instant::now();
    let twin = material.flipped();
    let materials: Vec<Material> =
        if twin == material { vec![material] } else { vec![material, twin] };
    let works: Vec<Work> = materials.iter().map(|&m| Work::new(rules, m)).collect();
    let limit = rules.limit();
    let far = limit.map_or(1, |l| (l + 1).min(u32::from(DTC_MASK)) as u16);

    for work in &works {
        progress.stage(Stage::Captures(work.index.material()), work.order.len());
        first_pass(rules, solved, work, far, threads, progress);
    }

    let partner = |k: usize| if works.len() == 2 { 1 - k } else { 0 };
    let mut h: u16 = 1;
    loop {
        for (k, work) in works.iter().enumerate() {
            let list = work.take(h);
            progress.stage(Stage::Level(work.index.material(), h), list.len() as u64);
            take_back(rules, work, &works[partner(k)], list, h, far, threads, progress);
        }
        if limit.is_some() && h + 1 == far {
            // Wins that only a capture into a cursed position gives are wins at L + 1.
            for work in &works {
                let cursed = std::mem::take(&mut *work.cursed.lock().expect("no panic"));
                let mut found: Vec<(u16, u32)> = cursed
                    .into_iter()
                    .filter(|&listed| {
                        let (mover, other) = work.order.unlisted(u64::from(listed));
                        work.decide(work.order.index(mover, other) as usize, WIN | far)
                    })
                    .map(|listed| (far, listed))
                    .collect();
                work.file(&mut found);
            }
        }
        let furthest = works.iter().map(Work::furthest).max().unwrap_or(0);
        if h >= furthest && (limit.is_none() || h + 1 >= far) {
            break;
        }
        h += 1;
    }

    // Each work array is dropped as soon as its entries are out; the time includes that pass.
    let tables: Vec<Table> = works
        .into_iter()
        .map(|work| {
            let entries = work.stored_entries(threads);
            Table { index: work.index, entries }
        })
        .collect();
    let elapsed = started.elapsed() / tables.len() as u32;
    tables
        .into_iter()
        .map(|table| {
            let report = BuildReport {
                material: table.material(),
                positions: table.index.full_len(),
                stored: table.len(),
                counts: table.counts(),
                longest_dtc: table.longest_dtc(),
                time: elapsed,
            };
            (table, report)
        })
        .collect()
}

/// The forward pass: captures, blocked positions and the count of quiet steps.
fn first_pass(
    rules: &TableRules,
    solved: &Tablebase,
    work: &Work,
    far: u16,
    threads: usize,
    progress: &dyn Progress,
) {
    for_chunks(threads, work.order.len(), CHUNK, |range| {
        let mut moves = MoveList::new();
        let mut found = Vec::new();
        let mut cursed = Vec::new();
        let len = range.end - range.start;
        for (i, mover, other) in work.order.positions(range) {
            let pos = rules.position(mover, other);
            moves.clear();
            pos.legal_moves_into(&mut moves);
            let (value, flags) = settle_captures(rules, solved, mover, other, &moves, far);
            if value & (WIN | LOSS) != 0 {
                let lost = if value & LOSS != 0 { LOST } else { 0 };
                found.push((value & DTC_MASK, work.order.listed(mover, other) as u32 | lost));
            } else if flags & CURSED_WIN != 0 {
                cursed.push(work.order.listed(mover, other) as u32);
            }
            let word = u32::from(value) | (u32::from(flags) << FLAGS_SHIFT);
            work.words[i as usize].store(word, Ordering::Relaxed);
        }
        work.file(&mut found);
        work.cursed.lock().expect("no panic holds the lock").extend(cursed);
        progress.advance(len);
    });
}

/// What the captures of a position (`mover` to move against `other`, with the legal `moves`)
/// decide: its entry if they decide it, and its work byte.
fn settle_captures(
    rules: &TableRules,
    solved: &Tablebase,
    mover: u64,
    other: u64,
    moves: &[Move],
    far: u16,
) -> (u16, u8) {
    if moves.is_empty() {
        return (LOSS | 1, 0);
    }
    // The count of quiet steps is kept whatever the captures decide: taking a step back into
    // a decided position still takes one from its count.
    let quiet = moves.iter().filter(|m| !m.is_capture()).count() as u8;
    let (mut flags, mut holds_out, mut loses) = (0u8, false, false);
    for &m in moves.iter().filter(|m| m.is_capture()) {
        match capture_outcome(rules, solved, mover, other, m) {
            CaptureOutcome::Wins => return (WIN | 1, quiet),
            CaptureOutcome::WinsWithoutLimit => flags |= CURSED_WIN | NO_LOSS,
            CaptureOutcome::Draws => flags |= NO_LOSS,
            CaptureOutcome::LosesWithoutLimit => holds_out = true,
            CaptureOutcome::Loses => loses = true,
        }
    }
    if holds_out {
        flags |= HOLDS_OUT;
    }
    if quiet > 0 {
        return (0, flags | quiet);
    }
    if flags & CURSED_WIN != 0 {
        (WIN | far, 0)
    } else if flags & NO_LOSS != 0 {
        (0, NO_LOSS)
    } else {
        debug_assert!(loses || holds_out);
        (LOSS | if holds_out { far } else { 1 }, 0)
    }
}

/// A capture's result for the side that makes it.
enum CaptureOutcome {
    Wins,
    WinsWithoutLimit,
    Draws,
    LosesWithoutLimit,
    Loses,
}

/// The stones of a move as table cell masks: where the stepping stone was and went, and what
/// it captured. The position after the move is the captured side to move with `other &
/// !captured` against `mover ^ from ^ to`: built from the masks, not by playing the move on a
/// rules crate position and reading the masks back, which cost more than the lookup itself.
#[inline]
fn move_masks(board: &Board, m: Move) -> (u64, u64) {
    match m {
        Move::Step { from, to, captures } => {
            (board.to_mask(Bitboard::from_cell(from).with(to)), board.to_mask(captures))
        }
        Move::Put(_) | Move::Pass => unreachable!("the tables hold movement positions only"),
    }
}

fn capture_outcome(
    rules: &TableRules,
    solved: &Tablebase,
    mover: u64,
    other: u64,
    m: Move,
) -> CaptureOutcome {
    let (stepped, captured) = move_masks(rules.board(), m);
    let (next_mover, next_other) = (other & !captured, mover ^ stepped);
    let left = next_mover.count_ones() as u8;
    if left <= rules.ruleset().lose_at() {
        return CaptureOutcome::Wins;
    }
    let material = Material::new(left, next_other.count_ones() as u8);
    let value = solved
        .value_of_masks(material, next_mover, next_other)
        .expect("the smaller materials are solved first");
    match (value.under_limit(0, rules.limit()), value.wdl) {
        (Outcome::Loss(_), _) => CaptureOutcome::Wins,
        (Outcome::Win(_), _) => CaptureOutcome::Loses,
        (Outcome::Draw, Wdl::Loss) => CaptureOutcome::WinsWithoutLimit,
        (Outcome::Draw, Wdl::Win) => CaptureOutcome::LosesWithoutLimit,
        (Outcome::Draw, Wdl::Draw) => CaptureOutcome::Draws,
    }
}

/// One level of the retrograde pass: the positions of `work` decided at distance `h` (`list`),
/// taken back into `partner` (the flipped material, where the stepping side was to move).
///
/// Each thread sorts its share of the list first: by listed number, so by the mover's stones,
/// whose steps taken back all land in one block of the partner's words (see
/// `index::WorkIndex`). Unsorted, nearly every step taken back was a cache miss.
#[allow(clippy::too_many_arguments)]
fn take_back(
    rules: &TableRules,
    work: &Work,
    partner: &Work,
    mut list: Vec<u32>,
    h: u16,
    far: u16,
    threads: usize,
    progress: &dyn Progress,
) {
    let share = list.len().div_ceil(threads.max(1)).max(1);
    std::thread::scope(|scope| {
        for part in list.chunks_mut(share) {
            scope.spawn(move || {
                part.sort_unstable_by_key(|&entry| entry & !LOST);
                let mut found = Vec::new();
                for piece in part.chunks(CHUNK as usize) {
                    for &entry in piece {
                        take_back_one(rules, work, partner, entry, h, far, &mut found);
                    }
                    partner.file(&mut found);
                    progress.advance(piece.len() as u64);
                }
            });
        }
    });
}

/// Takes back the steps into one decided position (`entry`: its listed number and mark).
#[inline]
fn take_back_one(
    rules: &TableRules,
    work: &Work,
    partner: &Work,
    entry: u32,
    h: u16,
    far: u16,
    found: &mut Vec<(u16, u32)>,
) {
    let lost = entry & LOST != 0;
    let (mover, stepper) = work.order.unlisted(u64::from(entry & !LOST));
    for_each_quiet_predecessor(rules, mover, stepper, |q_mover, q_other| {
        let j = partner.order.index(q_mover, q_other) as usize;
        let listed = || partner.order.listed(q_mover, q_other) as u32;
        if lost {
            if partner.decide(j, WIN | (h + 1)) {
                found.push((h + 1, listed()));
            }
            return;
        }
        let before = partner.words[j].fetch_sub(ONE_STEP, Ordering::Relaxed);
        let flags = (before >> FLAGS_SHIFT) as u8;
        debug_assert!(flags & COUNT > 0, "a predecessor's steps were miscounted");
        if flags & COUNT != 1 || flags & NO_LOSS != 0 || before & ENTRY != 0 {
            return;
        }
        let dtc = if flags & HOLDS_OUT != 0 { far.max(h + 1) } else { h + 1 };
        if partner.decide(j, LOSS | dtc) {
            found.push((dtc, listed() | LOST));
        }
    });
}
