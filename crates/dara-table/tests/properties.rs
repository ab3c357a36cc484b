//! Random sequences of inputs (both seats, watchers, the computer's answers, stale and fresh,
//! time passing and flags falling): no panic, a refusal changes nothing, the events are the
//! journal's growth, a game the rules end ends with the rules' reason, and replaying the
//! journal rebuilds the same game.

mod common;

use std::time::Duration;

use common::*;
use dara::Colour;
use dara_table::{
    by_the_rules, Ask, Effect, GameEvent, GameId, Input, Moment, Opponent, Patience, Refusal,
    Table, Think, TimeControl,
};
use proptest::prelude::*;

/// One thing that happens, in the terms proptest draws.
#[derive(Debug, Clone)]
enum Step {
    /// A turn by someone (0: a watcher, 1: pale, 2: dark, 3: the side to move): a legal one
    /// (picked by `pick`) or text from a small set of mistakes.
    Turn {
        who: u8,
        pick: usize,
        junk: Option<usize>,
        id: u64,
        lag: Option<u64>,
    },
    Ask {
        who: u8,
        what: u8,
        away: Option<u64>,
    },
    /// The computer answers the search `pick` of those asked for (stale or not).
    Answer {
        pick: usize,
    },
    RematchBegins {
        bits: u64,
    },
    /// The arena halves a side's clock (0: pale, 1: dark, 2: the side to move).
    Berserk {
        who: u8,
    },
    Time,
}

fn step() -> impl Strategy<Value = Step> {
    prop_oneof![
        4 => (prop_oneof![1 => 0u8..3, 3 => Just(3u8)], any::<usize>(), proptest::option::weighted(0.1, 0usize..6), 0u64..40, proptest::option::of(0u64..2000))
            .prop_map(|(who, pick, junk, id, lag)| Step::Turn { who, pick, junk, id, lag }),
        2 => (0u8..3, 0u8..30, proptest::option::of(0u64..60))
            .prop_map(|(who, what, away)| Step::Ask { who, what, away }),
        2 => any::<usize>().prop_map(|pick| Step::Answer { pick }),
        1 => any::<u64>().prop_map(|bits| Step::RematchBegins { bits }),
        1 => Just(Step::Time),
        1 => (0u8..3).prop_map(|who| Step::Berserk { who }),
    ]
}

const JUNK: [&str; 6] = ["", "c3-c4", "zz", "a1xa1", "pass", "c3-c4xe5,f6"];

fn who(table: &Table<Key>, code: u8) -> Option<Colour> {
    match code {
        0 => None,
        1 => Some(Colour::White),
        2 => Some(Colour::Black),
        _ => Some(table.played().pos().side()),
    }
}

/// The shell's side of it: the searches asked for, answered in any order.
#[derive(Default)]
struct Shell {
    asked: Vec<Think>,
    rematches: u32,
}

impl Shell {
    fn carry_out(&mut self, effects: &[Effect]) {
        for effect in effects {
            match effect {
                Effect::Think(think) => self.asked.push(think.clone()),
                Effect::StartRematch => self.rematches += 1,
                _ => {}
            }
        }
    }
}

fn run(mut table: Table<Key>, steps: Vec<(u64, Step)>, begun: Vec<Effect>) {
    let mut shell = Shell::default();
    shell.carry_out(&begun);
    let mut now = Moment::ORIGIN;
    for (ms, step) in steps {
        now = now + Duration::from_millis(ms);
        let input = match step {
            Step::Turn { who: code, pick, junk, id, lag } => {
                let legal = table.played().legal();
                let text = match junk {
                    Some(j) => JUNK[j].to_owned(),
                    None if legal.is_empty() => "c3".to_owned(),
                    None => legal[pick % legal.len()].to_string(),
                };
                let lag = lag.map(Duration::from_millis);
                Input::Ask { by: who(&table, code), ask: Ask::Turn { id, text, lag } }
            }
            Step::Ask { who: code, what, away } => {
                let ask = match what {
                    0 => Ask::Sit { key: 7 },
                    11..=19 => Ask::Lag(Duration::from_millis(away.unwrap_or(0) * 50)),
                    20 => Ask::Abort,
                    21 => Ask::TakebackAccept,
                    22 => Ask::TakebackDecline,
                    23 => Ask::TakebackWithdraw,
                    2 | 24.. => Ask::Back,
                    1 => Ask::DrawOffer,
                    3 => Ask::Resign,
                    4 => Ask::DrawOffer,
                    5 => Ask::DrawDecline,
                    6 => Ask::DrawWithdraw,
                    7 | 8 => Ask::Takeback,
                    9 => Ask::Rematch,
                    10 => Ask::Claim { opponent_away: away.map(Duration::from_secs) },
                };
                Input::Ask { by: who(&table, code), ask }
            }
            Step::Answer { pick } => {
                if shell.asked.is_empty() {
                    Input::Time
                } else {
                    let think = &shell.asked[pick % shell.asked.len()];
                    let legal = think.pos.legal_moves();
                    Input::ComputerMoved { ticket: think.ticket, m: legal[pick % legal.len()] }
                }
            }
            Step::RematchBegins { bits } => {
                if shell.rematches == 0 {
                    Input::Time
                } else {
                    Input::RematchStarted { game: GameId::from_bits(bits) }
                }
            }
            Step::Time => Input::Time,
            Step::Berserk { who: code } => {
                let side = who(&table, code + 1).expect("a side");
                let before = table.clone();
                match table.berserk(now, side) {
                    Ok(outcome) => {
                        let grown =
                            before.journal().len() as u64 + 1..table.journal().len() as u64 + 1;
                        assert_eq!(outcome.events, grown);
                        assert!(table.berserked()[side]);
                        assert!(!table.played().movers().contains(&side));
                        shell.carry_out(&outcome.effects);
                    }
                    Err(why) => {
                        assert_eq!(table, before, "berserk refused ({why}) but changed the table")
                    }
                }
                continue;
            }
        };
        let before = table.clone();
        let outcome = table.handle(now, input.clone());
        let grown = before.journal().len() as u64 + 1..table.journal().len() as u64 + 1;
        assert_eq!(outcome.events, grown, "{input:?}");
        match &outcome.reply {
            Err(Refusal::OutOfTime) => {
                let ending = table.ending().expect("a late turn loses on time");
                assert!(matches!(ending.reason, dara_table::EndReason::OutOfTime { .. }));
            }
            // A takeback granted once the running clock's flag had fell: the flag ended the
            // game first.
            Err(Refusal::GameOver) if before.ending().is_none() => {
                let ending = table.ending().expect("the flag fell");
                assert!(matches!(ending.reason, dara_table::EndReason::OutOfTime { .. }));
                assert!(matches!(input, Input::Ask { ask: Ask::TakebackAccept, .. }), "{input:?}");
            }
            Err(why) => {
                assert_eq!(table, before, "{input:?} refused ({why}) but changed the table");
                assert!(outcome.effects.is_empty(), "{input:?}: {:?}", outcome.effects);
            }
            Ok(_) => {}
        }
        // A game the rules ended says so, with the rules' reason.
        let pos = table.played().pos();
        if let Some((result, reason)) = by_the_rules(pos.status(), &table.settings().rules) {
            let ending = table.ending().expect("the rules ended the game");
            if matches!(
                table.journal().last(),
                Some(GameEvent::Moved { .. } | GameEvent::Ended { .. })
            ) {
                let by_time = matches!(ending.reason, dara_table::EndReason::OutOfTime { .. });
                assert!(by_time || (ending.result, ending.reason) == (result, reason));
            }
        }
        // A refusal of a turn may be followed by the same turn: nothing was taken from it.
        shell.carry_out(&outcome.effects);
        if let Some(deadline) = table.next_deadline() {
            assert!(deadline >= now || table.ending().is_none(), "a deadline in the past");
        }
    }
    // Replaying the journal rebuilds the same game.
    let later = now + Duration::from_secs(1);
    let restored = Table::restore(
        table.settings().clone(),
        table.seats().clone(),
        Patience::default(),
        table.journal().to_vec(),
        later,
    )
    .expect("the journal replays");
    assert_eq!(restored.played(), table.played());
    assert_eq!(restored.offers(), table.offers());
    assert_eq!(restored.takebacks(), table.takebacks());
    assert_eq!(restored.last_turns(), table.last_turns());
    assert_eq!(restored.journal(), table.journal());
    assert_eq!(restored.berserked(), table.berserked());
    assert_eq!(
        restored.ending().map(|e| (e.result, e.reason)),
        table.ending().map(|e| (e.result, e.reason))
    );
    if let (Some(clock), Some(left)) = (restored.clock(), last_clock(table.journal())) {
        assert_eq!(clock.left(later), left, "the clocks as last written");
        assert_eq!(clock.running(), None, "held until the side to move is back");
    }
}

/// Both clocks as the journal last wrote them.
fn last_clock(journal: &[GameEvent]) -> Option<dara_table::TimeLeft> {
    journal.iter().rev().find_map(|e| match *e {
        GameEvent::Seated { left, .. }
        | GameEvent::Moved { left, .. }
        | GameEvent::TookBack { left, .. }
        | GameEvent::Berserked { left, .. }
        | GameEvent::Ended { left, .. } => left,
        _ => None,
    })
}

fn steps() -> impl Strategy<Value = Vec<(u64, Step)>> {
    proptest::collection::vec((prop_oneof![3 => 0u64..3_000, 1 => 0u64..40_000], step()), 0..400)
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 200, ..ProptestConfig::default() })]

    #[test]
    fn a_game_between_people(steps in steps(), timed in any::<bool>()) {
        let clock = timed.then_some(TimeControl { initial: 30, increment: 1 });
        run(waiting(clock), steps, Vec::new());
    }

    #[test]
    fn an_open_table(steps in steps()) {
        let seats = dara::ByColour { white: dara_table::Seat::Human(PALE), black: dara_table::Seat::Open };
        let mut table = Table::new(settings(Opponent::Open, None), seats, Patience::default());
        let begun = table.begin(Moment::ORIGIN).effects;
        run(table, steps, begun);
    }

    #[test]
    fn a_game_against_the_computer(steps in steps(), pale in any::<bool>()) {
        let human = if pale { Colour::White } else { Colour::Black };
        let (table, begun) = against_computer(human);
        run(table, steps, begun.effects);
    }
}
