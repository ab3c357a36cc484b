//! Every input of a table, and every refusal, with plain function calls.

mod common;

use std::time::Duration;

use common::*;
use dara::record::GameResult;
use dara::ByColour;
use dara::Colour::{Black, White};
use dara_table::{
    Ask, Effect, EndReason, GameEvent, GameId, Input, Opponent, Patience, Refusal, Reply, Seat,
    Table, TimeLeft, MAX_EVENTS, MAX_TAKEBACKS, MAX_TAKEBACKS_ASKED,
};

#[test]
fn sitting_fills_the_free_seat_and_the_first_move_is_awaited() {
    let mut table = waiting(minute());
    assert_eq!(table.next_deadline(), None, "nothing is awaited before both sit");
    refused(&mut table, at(1), ask(Some(White), turn(1, "c3")), Refusal::OpponentNotSeated);
    refused(&mut table, at(1), ask(Some(White), Ask::Sit { key: 9 }), Refusal::AlreadySeated);
    let outcome = table.handle(at(2), ask(None, Ask::Sit { key: DARK }));
    assert_eq!(outcome.reply, Ok(Reply::Seated(Black)));
    assert_eq!(outcome.events, 1..2);
    assert_eq!(outcome.effects, [Effect::SeatTaken]);
    assert_eq!(
        table.journal(),
        [GameEvent::Seated {
            colour: Black,
            left: Some(TimeLeft { white: 60_000, black: 60_000 })
        }]
    );
    assert_eq!(table.seats().black, Seat::Human(DARK));
    // No clock runs before a side's first move; pale has 30 s to make it.
    assert_eq!(table.clock().unwrap().running(), None);
    assert_eq!(table.first_move_by(), Some(at(32)));
    assert_eq!(table.next_deadline(), Some(at(32)));
    refused(&mut table, at(3), ask(None, Ask::Sit { key: 9 }), Refusal::SeatsTaken);
}

#[test]
fn each_clock_starts_with_its_sides_first_move() {
    let mut table = friends(minute());
    // Pale thinks 20 s over the first placement: nothing is charged, and dark now has 30 s.
    let _ = play(&mut table, at(20), 1, "c3");
    assert_eq!(table.clock().unwrap().left(at(20)), TimeLeft { white: 60_000, black: 60_000 });
    assert_eq!(table.clock().unwrap().running(), None);
    assert_eq!(table.first_move_by(), Some(at(50)));
    let full = Some(TimeLeft { white: 60_000, black: 60_000 });
    assert!(matches!(table.journal().last(), Some(GameEvent::Moved { left, .. }) if *left == full));
    // Dark's first placement 29 s later is in time, and free; pale's clock runs from it.
    let _ = play(&mut table, at(49), 1, "d3");
    assert_eq!(table.first_move_by(), None);
    assert_eq!(table.clock().unwrap().running(), Some(White));
    assert_eq!(table.clock().unwrap().left(at(59)), TimeLeft { white: 50_000, black: 60_000 });
    assert_eq!(table.next_deadline(), Some(at(109) + dara_table::MAX_LAG_CREDIT));
    // From here each side's turn is charged.
    let _ = play(&mut table, at(59), 2, "e3");
    let _ = play(&mut table, at(64), 2, "f3");
    assert_eq!(table.clock().unwrap().left(at(64)), TimeLeft { white: 50_000, black: 55_000 });
}

#[test]
fn a_side_that_makes_no_first_move_in_time_aborts_the_game() {
    // Pale never places: 30 s after both sat, the game ends without a result.
    let mut table = friends(minute());
    let early = table.handle(at(30) - Duration::from_millis(1), Input::Time);
    assert!(early.events.is_empty() && early.effects.is_empty());
    let outcome = table.handle(at(30), Input::Time);
    assert_eq!(outcome.effects, [Effect::Ended(at(30))]);
    assert_eq!(
        table.journal().last(),
        Some(&GameEvent::Ended {
            result: GameResult::Unfinished,
            reason: EndReason::Aborted { idle: White },
            left: Some(TimeLeft { white: 60_000, black: 60_000 }),
        })
    );
    assert_eq!(table.next_deadline(), None);
    assert_eq!(table.first_move_by(), None);
    refused(&mut table, at(31), ask(Some(White), turn(1, "c3")), Refusal::GameOver);

    // Pale places, dark does not: aborted for dark 30 s after pale's placement.
    let mut table = friends(minute());
    let _ = play(&mut table, at(10), 1, "c3");
    assert_eq!(table.next_deadline(), Some(at(40)));
    let _ = table.handle(at(40), Input::Time);
    let ending = table.ending().unwrap();
    assert_eq!(
        (ending.result, ending.reason),
        (GameResult::Unfinished, EndReason::Aborted { idle: Black })
    );

    // A game with no clock waits as long as it takes, as it always did.
    let table = friends(None);
    assert_eq!(table.next_deadline(), None);
    assert_eq!(table.first_move_by(), None);
}

#[test]
fn after_a_restart_the_first_move_is_awaited_afresh_once_the_clocks_run() {
    let seats = ByColour { white: Seat::Human(PALE), black: Seat::Human(DARK) };
    let events = vec![GameEvent::Seated {
        colour: Black,
        left: Some(TimeLeft { white: 60_000, black: 60_000 }),
    }];
    let mut table = Table::restore(
        settings(Opponent::Friend, minute()),
        seats,
        Patience::default(),
        events,
        at(100),
    )
    .unwrap();
    let _ = table.begin(at(100));
    // Held for the side to move to come back; then it has its 30 s again.
    assert_eq!(table.first_move_by(), None);
    assert_eq!(table.next_deadline(), Some(at(160)));
    let _ = table.handle(at(105), ask(Some(White), Ask::Back));
    assert_eq!(table.first_move_by(), Some(at(135)));
    assert_eq!(table.clock().unwrap().running(), None);
}

#[test]
fn the_computer_is_never_waited_on_for_a_first_move() {
    let (table, _) = against_computer(Black);
    assert_eq!(table.first_move_by(), None);
}

#[test]
fn an_open_table_taken_says_so() {
    let seats = ByColourSeats::waiting();
    let mut table = Table::new(settings(Opponent::Open, None), seats, Patience::default());
    let _ = table.begin(at(0));
    assert_eq!(
        table.handle(at(0), ask(None, Ask::Sit { key: DARK })).reply,
        Ok(Reply::Seated(Black))
    );
    refused(&mut table, at(0), ask(None, Ask::Sit { key: 9 }), Refusal::TableTaken);
}

struct ByColourSeats;
impl ByColourSeats {
    fn waiting() -> dara::ByColour<Seat<Key>> {
        dara::ByColour { white: Seat::Human(PALE), black: Seat::Open }
    }
}

#[test]
fn turns_are_checked_before_anything_changes() {
    let mut table = friends(minute());
    refused(&mut table, at(1), ask(None, turn(1, "c3")), Refusal::Watching);
    let mut table = friends(Some(dara_table::TimeControl { initial: 60, increment: 2 }));
    let _ = play(&mut table, at(0), 1, "c3");
    let _ = play(&mut table, at(0), 1, "d3");
    let lagged = Ask::Turn { id: 2, text: "e3".into(), lag: Some(Duration::from_millis(300)) };
    let outcome = table.handle(at(10), ask(Some(White), lagged));
    assert_eq!(outcome.reply, Ok(Reply::Accepted { id: 2 }));
    let left = Some(TimeLeft { white: 60_000 - 10_000 + 300 + 2_000, black: 60_000 });
    assert_eq!(
        table.journal().last(),
        Some(&GameEvent::Moved { m: table.played().moves()[2], left, turn: Some(2) })
    );
    assert_eq!(table.clock().unwrap().running(), Some(Black));
    // Lag reported apart from a turn counts for the next one, at most half a second.
    assert_eq!(
        table.handle(at(10), ask(Some(Black), Ask::Lag(Duration::from_secs(9)))).reply,
        Ok(Reply::Done)
    );
    let _ = play(&mut table, at(15), 3, "f3");
    assert_eq!(table.clock().unwrap().left(at(15)).black, 60_000 - 5_000 + 500 + 2_000);
}

#[test]
fn a_flag_falls_at_its_deadline_and_a_late_turn_loses_on_time() {
    let mut table = both_placed_once(minute());
    let deadline = table.next_deadline().unwrap();
    let early = table.handle(deadline - Duration::from_millis(1), Input::Time);
    assert!(early.events.is_empty());
    let outcome = table.handle(deadline, Input::Time);
    assert_eq!(outcome.effects, [Effect::Ended(deadline)]);
    let ending = table.ending().unwrap();
    assert_eq!(
        (ending.result, ending.reason),
        (GameResult::BlackWins, EndReason::OutOfTime { loser: White })
    );
    assert_eq!(table.next_deadline(), None);

    // A turn after the time ran out, but before the flag's grace for lag: the game is lost.
    let mut table = both_placed_once(minute());
    let outcome =
        table.handle(at(60) + Duration::from_millis(100), ask(Some(White), turn(2, "e3")));
    assert_eq!(outcome.reply, Err(Refusal::OutOfTime));
    assert_eq!(table.ending().unwrap().reason, EndReason::OutOfTime { loser: White });
    assert_eq!(table.played().moves().len(), 2);
}

#[test]
fn resigning_ends_the_game_once() {
    let mut table = both_placed_once(minute());
    refused(&mut table, at(1), ask(None, Ask::Resign), Refusal::Watching);
    let outcome = table.handle(at(5), ask(Some(Black), Ask::Resign));
    assert_eq!(outcome.reply, Ok(Reply::Done));
    assert_eq!(outcome.effects, [Effect::Ended(at(5))]);
    assert_eq!(
        table.journal().last(),
        Some(&GameEvent::Ended {
            result: GameResult::WhiteWins,
            reason: EndReason::Resigned { loser: Black },
            left: Some(TimeLeft { white: 55_000, black: 60_000 }),
        })
    );
    for asked in [
        Ask::Resign,
        Ask::DrawOffer,
        Ask::DrawDecline,
        Ask::DrawWithdraw,
        Ask::Claim { opponent_away: Some(Duration::from_secs(99)) },
    ] {
        refused(&mut table, at(6), ask(Some(White), asked), Refusal::GameOver);
    }
    refused(&mut table, at(6), ask(Some(White), turn(2, "e3")), Refusal::GameOver);
}

#[test]
fn a_game_is_aborted_by_either_player_until_both_sides_have_moved() {
    // Before any move, pale calls it off: no result, the clocks untouched.
    let mut table = friends(minute());
    refused(&mut table, at(1), ask(None, Ask::Abort), Refusal::Watching);
    let outcome = table.handle(at(2), ask(Some(White), Ask::Abort));
    assert_eq!(outcome.reply, Ok(Reply::Done));
    assert_eq!(outcome.effects, [Effect::Ended(at(2))]);
    assert_eq!(
        table.journal().last(),
        Some(&GameEvent::Ended {
            result: GameResult::Unfinished,
            reason: EndReason::AbortedBy { by: White },
            left: Some(TimeLeft { white: 60_000, black: 60_000 }),
        })
    );
    refused(&mut table, at(3), ask(Some(Black), Ask::Abort), Refusal::GameOver);

    // After pale's first placement, dark (who has not moved) may still call it off.
    let mut table = friends(minute());
    let _ = play(&mut table, at(1), 1, "c3");
    let outcome = table.handle(at(2), ask(Some(Black), Ask::Abort));
    assert_eq!(outcome.reply, Ok(Reply::Done));
    assert!(matches!(
        table.journal().last(),
        Some(GameEvent::Ended { reason: EndReason::AbortedBy { by: Black }, .. })
    ));

    // Once both sides have moved, it is too late: one resigns instead.
    let mut table = both_placed_once(minute());
    for colour in [White, Black] {
        refused(&mut table, at(1), ask(Some(colour), Ask::Abort), Refusal::TooLateToAbort);
    }
}

/// A game by link with both seated, and each side's first placement made, at `at(0)`: pale's
/// clock runs from there.
fn both_placed_once(clock: Option<dara_table::TimeControl>) -> Table<Key> {
    let mut table = friends(clock);
    let _ = play(&mut table, at(0), 1, "c3");
    let _ = play(&mut table, at(0), 1, "d3");
    table
}

#[test]
fn a_draw_is_offered_answered_and_not_repeated_before_both_sides_moved() {
    let mut table = waiting(None);
    refused(&mut table, at(0), ask(Some(White), Ask::DrawOffer), Refusal::NobodyToOffer);
    let mut table = friends(None);
    refused(&mut table, at(0), ask(Some(White), Ask::DrawDecline), Refusal::NoDrawOffered);
    refused(&mut table, at(0), ask(Some(White), Ask::DrawWithdraw), Refusal::NoDrawToWithdraw);
    let outcome = table.handle(at(1), ask(Some(White), Ask::DrawOffer));
    assert_eq!((outcome.reply, outcome.events), (Ok(Reply::Done), 2..3));
    assert_eq!(table.offers().draw(), Some(White));
    refused(&mut table, at(1), ask(Some(White), Ask::DrawOffer), Refusal::DrawAlreadyOffered);
    refused(&mut table, at(1), ask(Some(White), Ask::DrawDecline), Refusal::NoDrawOffered);
    refused(&mut table, at(1), ask(Some(Black), Ask::DrawWithdraw), Refusal::NoDrawToWithdraw);
    let _ = table.handle(at(2), ask(Some(Black), Ask::DrawDecline));
    assert_eq!(table.journal().last(), Some(&GameEvent::DrawDeclined { by: Black }));
    // Declined: not again until both sides have moved.
    refused(&mut table, at(2), ask(Some(White), Ask::DrawOffer), Refusal::DrawOfferedLately);
    let _ = play(&mut table, at(3), 1, "c3");
    refused(&mut table, at(3), ask(Some(White), Ask::DrawOffer), Refusal::DrawOfferedLately);
    let _ = play(&mut table, at(4), 2, "d3");
    assert_eq!(table.handle(at(4), ask(Some(White), Ask::DrawOffer)).reply, Ok(Reply::Done));
    // Withdrawn: the same.
    let _ = table.handle(at(5), ask(Some(White), Ask::DrawWithdraw));
    assert_eq!(table.journal().last(), Some(&GameEvent::DrawWithdrawn { by: White }));
    refused(&mut table, at(5), ask(Some(White), Ask::DrawOffer), Refusal::DrawOfferedLately);
    // The other side may still offer, and a turn declines an offer without barring it.
    let _ = table.handle(at(5), ask(Some(Black), Ask::DrawOffer));
    let _ = play(&mut table, at(6), 3, "a1");
    assert_eq!(table.offers().draw(), None);
    assert!(!table.offers().draw_barred(Black));
    let _ = table.handle(at(6), ask(Some(Black), Ask::DrawOffer));
    // Accepted: a draw by agreement.
    let outcome = table.handle(at(7), ask(Some(White), Ask::DrawOffer));
    assert_eq!(outcome.effects, [Effect::Ended(at(7))]);
    let ending = table.ending().unwrap();
    assert_eq!((ending.result, ending.reason), (GameResult::Draw, EndReason::Agreement));
}

#[test]
fn the_computer_is_asked_plays_and_takes_no_draw_offers() {
    let (mut table, begun) = against_computer(Black);
    let asked = think(&begun).expect("the computer opens").clone();
    assert_eq!(table.thinking(), Some(asked.ticket));
    assert_eq!(asked.pos, *table.played().pos());
    refused(&mut table, at(1), ask(Some(Black), turn(1, "c3")), Refusal::NotYourTurn);
    refused(&mut table, at(1), ask(Some(Black), Ask::DrawOffer), Refusal::ComputerPlaysOn);
    let m = table.played().legal()[0];
    let outcome = table.handle(at(1), Input::ComputerMoved { ticket: asked.ticket, m });
    assert_eq!(outcome.events, 1..2);
    assert_eq!(table.journal()[0], GameEvent::Moved { m, left: None, turn: None });
    assert_eq!(table.thinking(), None);
    // An answer nobody waits for any more changes nothing.
    let m = table.played().legal()[0];
    refused_silently(&mut table, Input::ComputerMoved { ticket: asked.ticket, m });
    let outcome = play(&mut table, at(2), 1, "d4");
    let next = think(&outcome).expect("asked again");
    assert_ne!(next.ticket, asked.ticket);
    assert_eq!(next.history.len(), 2);
}

/// An input that is no request: answered `Done` with nothing changed.
fn refused_silently(table: &mut Table<Key>, input: Input<Key>) {
    let before = table.clone();
    let outcome = table.handle(at(1), input);
    assert_eq!(outcome.reply, Ok(Reply::Done));
    assert!(outcome.events.is_empty() && outcome.effects.is_empty());
    assert_eq!(*table, before);
}

#[test]
fn a_takeback_goes_back_to_the_players_last_turn() {
    let (mut table, _) = against_computer(White);
    refused(&mut table, at(0), ask(None, Ask::Takeback), Refusal::Watching);
    refused(&mut table, at(0), ask(Some(White), Ask::Takeback), Refusal::NothingToTakeBack);
    let first = play(&mut table, at(1), 1, "c3");
    let asked = think(&first).unwrap().clone();
    // Taken back while the computer thinks: its search is called off, one ply undone.
    let outcome = table.handle(at(2), ask(Some(White), Ask::Takeback));
    assert_eq!(outcome.effects, [Effect::CallOff(asked.ticket)]);
    assert_eq!(table.journal().last(), Some(&GameEvent::TookBack { plies: 1, left: None }));
    assert!(table.played().moves().is_empty());
    // Played again, answered, then taken back: both plies go.
    let again = play(&mut table, at(3), 2, "c3");
    let ticket = think(&again).unwrap().ticket;
    let m = table.played().legal()[0];
    let _ = table.handle(at(3), Input::ComputerMoved { ticket, m });
    // The old search's answer, come late, is stale.
    let m = table.played().legal()[0];
    refused_silently(&mut table, Input::ComputerMoved { ticket: asked.ticket, m });
    let outcome = table.handle(at(4), ask(Some(White), Ask::Takeback));
    assert_eq!(outcome.reply, Ok(Reply::Done));
    assert!(outcome.effects.is_empty(), "the person is to move: the computer is not asked");
    assert_eq!(table.journal().last(), Some(&GameEvent::TookBack { plies: 2, left: None }));
    assert_eq!(table.takebacks(), 2);
    // After a resignation there is nothing to go back to.
    let _ = table.handle(at(5), ask(Some(White), Ask::Resign));
    refused(&mut table, at(5), ask(Some(White), Ask::Takeback), Refusal::GameOver);
}

#[test]
fn a_takeback_asked_of_a_person_is_declined_withdrawn_lapses_and_has_a_limit() {
    let mut table = friends(None);
    refused(&mut table, at(0), ask(None, Ask::Takeback), Refusal::Watching);
    refused(&mut table, at(0), ask(Some(White), Ask::Takeback), Refusal::NothingToTakeBack);
    let _ = play(&mut table, at(1), 1, "c3");
    refused(&mut table, at(1), ask(Some(Black), Ask::Takeback), Refusal::NothingToTakeBack);
    // Asked: nothing is undone yet, the opponent is to answer.
    let outcome = table.handle(at(2), ask(Some(White), Ask::Takeback));
    assert_eq!((outcome.reply, outcome.events), (Ok(Reply::Done), 3..4));
    assert!(outcome.effects.is_empty());
    assert_eq!(table.journal().last(), Some(&GameEvent::TakebackOffered { by: White }));
    assert_eq!(table.offers().takeback(), Some(White));
    assert_eq!(table.played().moves().len(), 1);
    refused(&mut table, at(2), ask(Some(White), Ask::Takeback), Refusal::TakebackPending);
    refused(&mut table, at(2), ask(Some(Black), Ask::Takeback), Refusal::TakebackPending);
    refused(&mut table, at(2), ask(Some(White), Ask::TakebackAccept), Refusal::NoTakebackAsked);
    refused(&mut table, at(2), ask(None, Ask::TakebackAccept), Refusal::Watching);
    let withdraw = ask(Some(Black), Ask::TakebackWithdraw);
    refused(&mut table, at(2), withdraw, Refusal::NoTakebackAsked);
    // Declined: the position stays, and the asker may not ask again before a turn.
    let _ = table.handle(at(3), ask(Some(Black), Ask::TakebackDecline));
    assert_eq!(table.journal().last(), Some(&GameEvent::TakebackDeclined { by: Black }));
    assert_eq!((table.offers().takeback(), table.played().moves().len()), (None, 1));
    refused(&mut table, at(3), ask(Some(White), Ask::Takeback), Refusal::TakebackAskedLately);
    refused(&mut table, at(3), ask(Some(Black), Ask::TakebackDecline), Refusal::NoTakebackAsked);
    // Any turn lifts the bar: asked on one's own turn, it reaches back over the opponent's.
    let _ = play(&mut table, at(4), 1, "d3");
    assert_eq!(table.handle(at(4), ask(Some(White), Ask::Takeback)).reply, Ok(Reply::Done));
    // Withdrawn: the same bar.
    let _ = table.handle(at(5), ask(Some(White), Ask::TakebackWithdraw));
    assert_eq!(table.journal().last(), Some(&GameEvent::TakebackWithdrawn { by: White }));
    refused(&mut table, at(5), ask(Some(White), Ask::Takeback), Refusal::TakebackAskedLately);
    // A turn makes a request lapse, unanswered: nothing is left to accept.
    let _ = play(&mut table, at(6), 2, "e3");
    assert_eq!(table.handle(at(6), ask(Some(White), Ask::Takeback)).reply, Ok(Reply::Done));
    let _ = play(&mut table, at(7), 2, "f3");
    assert_eq!(table.offers().takeback(), None);
    assert!(!table.offers().takeback_barred(White), "a lapsed request bars nobody");
    refused(&mut table, at(7), ask(Some(Black), Ask::TakebackAccept), Refusal::NoTakebackAsked);
    assert_eq!(table.played().moves().len(), 4);
    // Three asked, whatever became of them: no more in this game for pale; dark may still ask.
    assert_eq!(table.offers().takebacks_asked(White), MAX_TAKEBACKS_ASKED);
    let limit = Refusal::TakebacksAskedLimit { limit: MAX_TAKEBACKS_ASKED };
    refused(&mut table, at(8), ask(Some(White), Ask::Takeback), limit);
    assert_eq!(table.handle(at(8), ask(Some(Black), Ask::Takeback)).reply, Ok(Reply::Done));
    // The end of the game makes it lapse, and nothing is asked after it.
    let _ = table.handle(at(9), ask(Some(White), Ask::Resign));
    assert_eq!(table.offers().takeback(), None);
    refused(&mut table, at(9), ask(Some(Black), Ask::Takeback), Refusal::GameOver);
    refused(&mut table, at(9), ask(Some(White), Ask::TakebackAccept), Refusal::GameOver);
}

#[test]
fn a_granted_takeback_goes_back_to_the_askers_turn_with_the_time_as_it_stands() {
    let mut table = both_placed_once(minute());
    // Pale takes 10 s over e3; dark's clock runs.
    let _ = play(&mut table, at(10), 2, "e3");
    let _ = table.handle(at(12), ask(Some(White), Ask::Takeback));
    // Dark offers a draw meanwhile: it goes with the position taken back.
    let _ = table.handle(at(13), ask(Some(Black), Ask::DrawOffer));
    // Dark thinks 5 s, then grants it: one ply back, pale to move, pale's clock running; the
    // 5 s are dark's, and pale's 10 s are not given back.
    let outcome = table.handle(at(15), ask(Some(Black), Ask::TakebackAccept));
    assert_eq!(outcome.reply, Ok(Reply::Done));
    let left = Some(TimeLeft { white: 50_000, black: 55_000 });
    assert_eq!(table.journal().last(), Some(&GameEvent::TookBack { plies: 1, left }));
    assert_eq!(table.played().moves().len(), 2);
    assert_eq!(table.played().pos().side(), White);
    assert_eq!((table.offers().takeback(), table.offers().draw()), (None, None));
    assert_eq!(table.takebacks(), 1);
    let clock = table.clock().unwrap();
    assert_eq!(clock.running(), Some(White));
    assert_eq!(clock.left(at(20)), TimeLeft { white: 45_000, black: 55_000 });
    // Asked on pale's own turn, after dark answered: both plies go, and it is pale's turn again.
    let _ = play(&mut table, at(20), 3, "e3");
    let _ = play(&mut table, at(25), 3, "f3");
    let _ = table.handle(at(26), ask(Some(White), Ask::Takeback));
    let _ = table.handle(at(27), ask(Some(Black), Ask::TakebackAccept));
    let left = TimeLeft { white: 43_000, black: 50_000 };
    assert_eq!(table.journal().last(), Some(&GameEvent::TookBack { plies: 2, left: Some(left) }));
    assert_eq!((table.played().moves().len(), table.played().pos().side()), (2, White));
    assert_eq!(table.clock().unwrap().running(), Some(White));
    // Kept as a turn is: the journal replays into the same game, clocks as last written.
    let restored = Table::restore(
        table.settings().clone(),
        table.seats().clone(),
        Patience::default(),
        table.journal().to_vec(),
        at(30),
    )
    .unwrap();
    assert_eq!(restored.played(), table.played());
    assert_eq!(restored.offers(), table.offers());
    assert_eq!(restored.takebacks(), 2);
    assert_eq!(restored.clock().unwrap().left(at(30)), left);
}

#[test]
fn a_takeback_back_to_before_a_first_move_waits_for_it_again() {
    let mut table = friends(minute());
    let _ = play(&mut table, at(1), 1, "c3");
    let _ = table.handle(at(2), ask(Some(White), Ask::Takeback));
    let _ = table.handle(at(3), ask(Some(Black), Ask::TakebackAccept));
    assert!(table.played().moves().is_empty());
    assert_eq!(table.clock().unwrap().running(), None);
    assert_eq!(table.first_move_by(), Some(at(33)), "pale's time for a first move, afresh");
}

#[test]
fn a_takeback_granted_after_the_flag_fell_comes_too_late() {
    let mut table = both_placed_once(minute());
    let _ = play(&mut table, at(10), 2, "e3");
    let _ = table.handle(at(11), ask(Some(White), Ask::Takeback));
    // Dark's minute and the lag credit are gone before dark answers.
    let outcome = table.handle(at(75), ask(Some(Black), Ask::TakebackAccept));
    assert_eq!(outcome.reply, Err(Refusal::GameOver));
    assert_eq!(table.ending().unwrap().reason, EndReason::OutOfTime { loser: Black });
    assert_eq!(table.played().moves().len(), 3);
}

#[test]
fn takebacks_have_a_limit() {
    let (mut table, _) = against_computer(White);
    for id in 0..u64::from(MAX_TAKEBACKS) {
        let _ = play(&mut table, at(1), id, "c3");
        assert_eq!(table.handle(at(1), ask(Some(White), Ask::Takeback)).reply, Ok(Reply::Done));
    }
    let _ = play(&mut table, at(1), 999, "c3");
    refused(
        &mut table,
        at(1),
        ask(Some(White), Ask::Takeback),
        Refusal::TakebackLimit { limit: MAX_TAKEBACKS },
    );
}

#[test]
fn a_rematch_is_asked_agreed_and_begun() {
    let mut table = friends(None);
    refused(&mut table, at(0), ask(Some(White), Ask::Rematch), Refusal::FinishFirst);
    let _ = table.handle(at(1), ask(Some(White), Ask::Resign));
    refused(&mut table, at(1), ask(None, Ask::Rematch), Refusal::Watching);
    let outcome = table.handle(at(2), ask(Some(White), Ask::Rematch));
    assert_eq!(outcome.events, 3..4);
    assert_eq!(table.offers().rematch(), Some(White));
    refused(&mut table, at(2), ask(Some(White), Ask::Rematch), Refusal::RematchAlreadyAsked);
    let agreed = table.handle(at(3), ask(Some(Black), Ask::Rematch));
    assert_eq!((agreed.reply, agreed.effects), (Ok(Reply::Done), vec![Effect::StartRematch]));
    assert!(agreed.events.is_empty(), "nothing is told until the rematch exists");
    let game = GameId::from_bits(42);
    let begun = table.handle(at(3), Input::RematchStarted { game: game.clone() });
    assert_eq!(begun.events, 4..5);
    assert_eq!(table.offers().rematch_game(), Some(&game));
    assert_eq!(table.offers().rematch(), None);
    refused(&mut table, at(3), ask(Some(Black), Ask::Rematch), Refusal::RematchBegun);

    // The computer always agrees.
    let (mut table, _) = against_computer(White);
    let _ = table.handle(at(1), ask(Some(White), Ask::Resign));
    assert_eq!(table.handle(at(1), ask(Some(White), Ask::Rematch)).effects, [Effect::StartRematch]);
}

#[test]
fn a_game_is_claimed_from_an_opponent_gone_long_enough() {
    let mut table = friends(None);
    let claim = |away: Option<u64>| {
        ask(Some(White), Ask::Claim { opponent_away: away.map(Duration::from_secs) })
    };
    refused(&mut table, at(1), claim(None), Refusal::OpponentPresent);
    refused(&mut table, at(1), claim(Some(10)), Refusal::ClaimTooEarly { seconds: 21 });
    let outcome = table.handle(at(40), claim(Some(30)));
    assert_eq!(outcome.effects, [Effect::Ended(at(40))]);
    assert_eq!(table.ending().unwrap().reason, EndReason::Left { loser: Black });
    // Nobody claims against the computer.
    let (mut table, _) = against_computer(White);
    refused(&mut table, at(1), claim(Some(99)), Refusal::OpponentPresent);
}

#[test]
fn the_history_has_a_cap_past_which_only_turns_go_on() {
    // A game whose journal is at the cap: a thousand offers turned down, then a turn each.
    let mut events = vec![GameEvent::Seated { colour: Black, left: None }];
    for _ in 0..(MAX_EVENTS - 3) / 2 {
        events.push(GameEvent::DrawOffered { by: White });
        events.push(GameEvent::DrawDeclined { by: Black });
    }
    let c3 = dara::Move::Put(dara::Cell::from_name("c3").unwrap());
    let d3 = dara::Move::Put(dara::Cell::from_name("d3").unwrap());
    events.push(GameEvent::DrawOffered { by: Black });
    events.push(GameEvent::Moved { m: c3, left: None, turn: Some(1) });
    events.push(GameEvent::Moved { m: d3, left: None, turn: Some(1) });
    assert_eq!(events.len(), MAX_EVENTS);
    let seats = dara::ByColour { white: Seat::Human(PALE), black: Seat::Human(DARK) };
    let mut table =
        Table::restore(settings(Opponent::Friend, None), seats, Patience::default(), events, at(0))
            .unwrap();
    assert!(!table.offers().draw_barred(White), "both sides moved since the last decline");
    assert_eq!(table.offers().draw(), None, "a turn declines an offer");
    refused(
        &mut table,
        at(1),
        ask(Some(White), Ask::DrawOffer),
        Refusal::EventLimit { limit: MAX_EVENTS },
    );
    let _ = play(&mut table, at(1), 2, "a1");
    assert_eq!(table.journal().len(), MAX_EVENTS + 1);
    let _ = table.handle(at(2), ask(Some(Black), Ask::Resign));
    refused(
        &mut table,
        at(2),
        ask(Some(Black), Ask::Rematch),
        Refusal::EventLimit { limit: MAX_EVENTS },
    );
}

/// The legal turns are listed once per turn: when the position is reached. That list checks the
/// next turn and is what the page is sent; a refused turn lists nothing.
#[test]
fn one_generation_per_accepted_turn() {
    let mut table = friends(None);
    for (id, text) in (1..).zip(["c3", "d3", "a1", "f5", "b4", "e2", "a3", "d5"]) {
        let before = dara::generations();
        let _ = play(&mut table, at(1), id, text);
        assert_eq!(dara::generations() - before, 1, "generations for {text}");
    }
    let before = dara::generations();
    let side = table.played().pos().side();
    let _ = table.handle(at(1), ask(Some(!side), turn(99, "b1")));
    let _ = table.handle(at(1), ask(Some(side), turn(100, "c3")));
    assert_eq!(dara::generations() - before, 0);
}
