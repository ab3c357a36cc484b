//! The retrograde builder: every position of a material solved from the positions it leads to.
//!
//! Materials are built smallest first, a material together with its flipped twin (`3v4` with
//! `4v3`), since a quiet step leads from one to the other and a capture leads to a smaller,
//! already solved material. In the full index of the pair:
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
//! Both cores: each pass shares the positions out in chunks; the entries are atomics, and the
//! only writes two threads can race on are a win or a loss for the same position, which cannot
//! both be true.

use std::collections::BTreeMap;
use std::sync::atomic::{AtomicU16, AtomicU8, Ordering};
use std::sync::Mutex;
use std::time::{Duration, Instant};

use dara::{Move, MoveList};

use crate::index::MaterialIndex;
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
    values: Vec<AtomicU16>,
    flags: Vec<AtomicU8>,
    /// Positions decided at each distance, waiting to be taken back: lists instead of a scan of
    /// the whole table per distance, which cost more than the rest of the build.
    decided: Mutex<BTreeMap<u16, Vec<u32>>>,
    /// Positions that win at `L + 1` by a capture into a cursed position unless they win sooner.
    cursed: Mutex<Vec<u32>>,
}

impl Work {
    fn new(rules: &TableRules, material: Material) -> Work {
        let index = MaterialIndex::new(rules.board(), material);
        assert!(
            index.full_len() <= u64::from(u32::MAX),
            "{material} has more positions than the builder numbers ({})",
            index.full_len()
        );
        let len = index.full_len() as usize;
        Work {
            index,
            values: (0..len).map(|_| AtomicU16::new(0)).collect(),
            flags: (0..len).map(|_| AtomicU8::new(0)).collect(),
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
        progress.stage(Stage::Captures(work.index.material()), work.index.full_len());
        first_pass(rules, solved, work, far, threads, progress);
    }

    let partner = |k: usize| if works.len() == 2 { 1 - k } else { 0 };
    let mut h: u16 = 1;
    loop {
        for (k, work) in works.iter().enumerate() {
            let list = work.take(h);
            progress.stage(Stage::Level(work.index.material(), h), list.len() as u64);
            take_back(rules, work, &works[partner(k)], &list, h, far, threads, progress);
        }
        if limit.is_some() && h + 1 == far {
            // Wins that only a capture into a cursed position gives are wins at L + 1.
            for work in &works {
                let cursed = std::mem::take(&mut *work.cursed.lock().expect("no panic"));
                let mut found: Vec<(u16, u32)> = cursed
                    .into_iter()
                    .filter(|&i| {
                        work.values[i as usize]
                            .compare_exchange(0, WIN | far, Ordering::Relaxed, Ordering::Relaxed)
                            .is_ok()
                    })
                    .map(|i| (far, i))
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

    let elapsed = started.elapsed() / works.len() as u32;
    works
        .into_iter()
        .map(|work| {
            let mut entries = Vec::with_capacity(work.index.stored_len() as usize);
            for class in 0..work.index.classes() {
                for i in work.index.full_of_stored_run(class) {
                    entries.push(work.values[i as usize].load(Ordering::Relaxed));
                }
            }
            let table = Table { index: work.index, entries };
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
    for_chunks(threads, work.index.full_len(), CHUNK, |range| {
        let mut moves = MoveList::new();
        let mut found = Vec::new();
        let mut cursed = Vec::new();
        let len = range.end - range.start;
        for (i, mover, other) in work.index.positions(range) {
            let pos = rules.position(mover, other);
            moves.clear();
            pos.legal_moves_into(&mut moves);
            let (value, flags) = settle_captures(rules, solved, &pos, &moves, far);
            if value & (WIN | LOSS) != 0 {
                found.push((value & DTC_MASK, i as u32));
            } else if flags & CURSED_WIN != 0 {
                cursed.push(i as u32);
            }
            work.values[i as usize].store(value, Ordering::Relaxed);
            work.flags[i as usize].store(flags, Ordering::Relaxed);
        }
        work.file(&mut found);
        work.cursed.lock().expect("no panic holds the lock").extend(cursed);
        progress.advance(len);
    });
}

/// What the captures of a position decide: its entry if they decide it, and its work byte.
fn settle_captures(
    rules: &TableRules,
    solved: &Tablebase,
    pos: &dara::Position,
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
        match capture_outcome(rules, solved, pos, m) {
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

fn capture_outcome(
    rules: &TableRules,
    solved: &Tablebase,
    pos: &dara::Position,
    m: Move,
) -> CaptureOutcome {
    let child = pos.after(m);
    if child.stones_on_board(child.side()) <= rules.ruleset().lose_at() {
        return CaptureOutcome::Wins;
    }
    let (mover, other) = rules.masks(&child);
    let material = Material::new(mover.count_ones() as u8, other.count_ones() as u8);
    let value = solved
        .value_of_masks(material, mover, other)
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
#[allow(clippy::too_many_arguments)]
fn take_back(
    rules: &TableRules,
    work: &Work,
    partner: &Work,
    list: &[u32],
    h: u16,
    far: u16,
    threads: usize,
    progress: &dyn Progress,
) {
    for_chunks(threads, list.len() as u64, CHUNK, |range| {
        let len = range.end - range.start;
        let mut found = Vec::new();
        for &i in &list[range.start as usize..range.end as usize] {
            let value = work.values[i as usize].load(Ordering::Relaxed);
            let (mover, stepper) = work.index.unfull(u64::from(i));
            let lost = value & LOSS != 0;
            for_each_quiet_predecessor(rules, mover, stepper, |q_mover, q_other| {
                let j = partner.index.full(q_mover, q_other) as usize;
                if lost {
                    let won = partner.values[j].compare_exchange(
                        0,
                        WIN | (h + 1),
                        Ordering::Relaxed,
                        Ordering::Relaxed,
                    );
                    if won.is_ok() {
                        found.push((h + 1, j as u32));
                    }
                    return;
                }
                let before = partner.flags[j].fetch_sub(1, Ordering::Relaxed);
                debug_assert!(before & COUNT > 0, "a predecessor's steps were miscounted");
                if before & COUNT != 1 || before & NO_LOSS != 0 {
                    return;
                }
                let dtc = if before & HOLDS_OUT != 0 { far.max(h + 1) } else { h + 1 };
                let lost = partner.values[j].compare_exchange(
                    0,
                    LOSS | dtc,
                    Ordering::Relaxed,
                    Ordering::Relaxed,
                );
                if lost.is_ok() {
                    found.push((dtc, j as u32));
                }
            });
        }
        partner.file(&mut found);
        progress.advance(len);
    });
}
