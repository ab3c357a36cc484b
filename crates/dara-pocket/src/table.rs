//! The page's own table: a game against the computer played entirely in the browser, with the
//! table crate's rules of the game at the table (turns, takebacks, resigning, results) and the
//! very messages the server's socket sends, so that the game page draws it with the same code.
//!
//! The shell is the page (`assets/page-table.js`): it hands each [`Call`] with the time and a
//! seed for the computer's dice, and carries out the [`Answered`]: the messages to apply, the
//! search to ask its engine worker for (answered with [`Call::Computer`]), the searches to call
//! off, when to hand the table [`Call::Time`], and the game to keep (after every call, so a
//! reload continues from the last thing that happened).

use dara::{ByColour, Colour};
use dara_engine::level::Level;
use dara_table::view::{Event, View};
use dara_table::wire::{
    Answer, Answering, Asking, ClientMessage, NoShellError, PresenceView, Refusal, SeatPresence,
    Versioned,
};
use dara_table::{Ask, Effect, GameId, Input, Moment, Patience, Seat, Table, Think, Ticket};
use serde::{Deserialize, Serialize};
use serde_json::value::RawValue;
use std::time::Duration;

use crate::kept::Kept;

/// What the page may hand its table: `{"message": text}`, `{"computer": {"ticket": n, "m":
/// move}}` or `"time"`.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Call {
    /// A message as the page would send it over a game's socket (`{"t": "move", ...}`).
    Message(String),
    /// The computer's search with this ticket chose this move.
    Computer {
        /// The ticket the search was asked with.
        ticket: u64,
        /// The move, in notation.
        m: String,
    },
    /// The time the table asked to be woken at has come.
    Time,
}

/// A search for the page's engine worker.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Search {
    /// Its ticket, to hand back with the move.
    pub ticket: u64,
    /// The request line for the engine ([`crate::Request`]).
    pub request: String,
}

/// What the page is to do after a call.
#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Answered {
    /// The messages, in order, as the server's socket would send them.
    pub messages: Vec<Box<RawValue>>,
    /// A search to start.
    pub search: Option<Search>,
    /// Searches no longer wanted.
    pub call_off: Vec<u64>,
    /// When to hand the table [`Call::Time`], in the page's milliseconds.
    pub wake_at: Option<u64>,
    /// The game as it is to be kept now.
    pub kept: Kept,
    /// The next game, where both agreed to one (a rematch, colours swapped): to keep too.
    pub rematch: Option<Kept>,
}

/// What the page's table answers: it starts its rematches itself, so a rematch never fails to.
type PageAnswer = Answer<NoShellError>;

/// The page's one person: a game here has one seat a person holds.
type Person = ();

/// A game against the computer, in the page.
#[derive(Debug)]
pub struct PageTable {
    kept: Kept,
    table: Table<Person>,
    level: Level,
}

/// Milliseconds on the page's clock (`Date.now()`, so that a game kept overnight takes up its
/// clocks where they were) as the table's time.
fn moment(ms: u64) -> Moment {
    Moment::from_origin(Duration::from_millis(ms))
}

fn raw(message: &impl Serialize) -> Box<RawValue> {
    let text = serde_json::to_string(message).expect("protocol messages always serialise");
    RawValue::from_string(text).expect("serde_json writes JSON")
}

impl PageTable {
    /// Takes up a kept game at `now_ms` (a new one has an empty journal).
    ///
    /// # Errors
    /// What is wrong with the kept copy: a setting that does not read, or a journal the rules
    /// do not replay.
    pub fn open(kept: Kept, now_ms: u64) -> Result<PageTable, String> {
        let (settings, level) = kept.settings()?;
        let seats = match kept.you {
            Colour::White => ByColour { white: Seat::Human(()), black: Seat::Computer(level) },
            Colour::Black => ByColour { white: Seat::Computer(level), black: Seat::Human(()) },
        };
        let table = Table::restore(
            settings,
            seats,
            Patience::default(),
            kept.journal.clone(),
            moment(now_ms),
        )
        .map_err(|e| format!("the kept game does not replay: {e}"))?;
        Ok(PageTable { kept, table, level })
    }

    /// The page says hello: the whole game as its player sees it, and who is here; and what
    /// the table does as it starts (the computer asked to move, if it is its turn).
    pub fn hello(&mut self, now_ms: u64, seed: u64) -> Answered {
        let now = moment(now_ms);
        let begun = self.table.begin(now);
        let back = self.table.handle(now, Input::Ask { by: Some(self.kept.you), ask: Ask::Back });
        let view = View { table: &self.table, date: &self.kept.date };
        let snapshot = Event::Snapshot(Box::new(view.snapshot(Some(self.kept.you), now)));
        let v = self.table.journal().len() as u64;
        let mut answered = self.nothing_new();
        // The events of starting are in the snapshot; only their effects are carried out.
        answered.messages = vec![raw(&Versioned { event: &snapshot, v }), raw(&self.presence())];
        for outcome in [begun, back] {
            self.carry_out_effects(outcome.effects, now, seed, &mut answered);
        }
        answered.wake_at = self.wake_at();
        answered.kept = self.kept_now();
        answered
    }

    /// Carries out one call at `now_ms`; `seed` draws the computer's dice should it be asked.
    pub fn call(&mut self, call: Call, now_ms: u64, seed: u64) -> Answered {
        let now = moment(now_ms);
        let by = Some(self.kept.you);
        let (reply, outcome) = match call {
            Call::Message(text) => match ClientMessage::parse(&text) {
                Err(error) => (Some(PageAnswer::Error(Refusal::from(error).into())), None),
                // The page keeps the game after every call, and the computer is always here:
                // nobody to claim against.
                Ok(message) => match Asking::new(&self.table, by, message, true, |_| None) {
                    Asking::Hello { .. } => return self.hello(now_ms, seed),
                    Asking::Table { ask, answer } => self.ask(now, ask, answer),
                    // Both seats are taken: the table says so in its own words.
                    Asking::Sit => self.ask(now, Ask::Sit { key: () }, Answering::Done),
                    Asking::Unkept(answer) | Asking::Answered(answer) => (Some(answer), None),
                    // The page's table plays the computer, which reads no quick message (the
                    // adapter refuses them in such a game; said again here should that change).
                    Asking::Say { .. } => {
                        let refused = Refusal::QuickMessagesBetweenPeople;
                        (Some(PageAnswer::Error(refused.into())), None)
                    }
                },
            },
            Call::Computer { ticket, m } => {
                match self.table.played().pos().parse_move(&m) {
                    Ok(m) => {
                        let input = Input::ComputerMoved { ticket: Ticket(ticket), m };
                        (None, Some(self.table.handle(now, input)))
                    }
                    // Not a move here (an engine of another build, a message garbled): the
                    // search still waited for is asked again rather than the game left waiting.
                    Err(_) => {
                        let mut answered = self.nothing_new();
                        answered.search = self
                            .table
                            .thinking()
                            .filter(|t| t.0 == ticket)
                            .map(|t| self.search(t, self.level, seed));
                        return answered;
                    }
                }
            }
            Call::Time => (None, Some(self.table.handle(now, Input::Time))),
        };
        let mut answered = match outcome {
            Some(outcome) => self.carry_out(outcome, now, seed),
            None => self.nothing_new(),
        };
        if let Some(reply) = reply {
            // The reply first, then the events, as the server sends them.
            answered.messages.insert(0, raw(&reply));
        }
        answered
    }

    /// Hands the table what the page's person asks, and the answer to its reply with what
    /// followed. The page's table starts its rematches itself, so the reply stands.
    fn ask(
        &mut self,
        now: Moment,
        ask: Ask<Person>,
        answer: Answering,
    ) -> (Option<PageAnswer>, Option<dara_table::Outcome>) {
        let outcome = self.table.handle(now, Input::Ask { by: Some(self.kept.you), ask });
        let reply = answer.answer(outcome.reply.clone().map_err(Refusal::from));
        (Some(reply), Some(outcome))
    }

    /// The page's answer to what the table did: its events as messages, its effects.
    fn carry_out(&mut self, outcome: dara_table::Outcome, now: Moment, seed: u64) -> Answered {
        let mut answered = self.nothing_new();
        self.tell(outcome.events, &mut answered);
        self.carry_out_effects(outcome.effects, now, seed, &mut answered);
        answered.wake_at = self.wake_at();
        answered.kept = self.kept_now();
        answered
    }

    /// Events `range` of the journal, as the messages the server would send.
    fn tell(&self, range: core::ops::Range<u64>, answered: &mut Answered) {
        let view = View { table: &self.table, date: &self.kept.date };
        for v in range {
            answered.messages.push(raw(&Versioned { event: &view.last(v), v }));
        }
    }

    fn carry_out_effects(
        &mut self,
        effects: Vec<Effect>,
        now: Moment,
        seed: u64,
        answered: &mut Answered,
    ) {
        for effect in effects {
            match effect {
                Effect::Think(Think { ticket, level, .. }) => {
                    answered.search = Some(self.search(ticket, level, seed));
                }
                Effect::CallOff(Ticket(ticket)) => answered.call_off.push(ticket),
                Effect::StartRematch => {
                    let next = self.rematch(seed);
                    let game = next.game.clone();
                    let started = self.table.handle(now, Input::RematchStarted { game });
                    self.tell(started.events, answered);
                    answered.rematch = Some(next);
                }
                Effect::SeatTaken | Effect::Ended(_) | Effect::Reopened => {}
            }
        }
    }

    fn nothing_new(&self) -> Answered {
        Answered {
            messages: Vec::new(),
            search: None,
            call_off: Vec::new(),
            wake_at: self.wake_at(),
            kept: self.kept_now(),
            rematch: None,
        }
    }

    /// The request line for the engine: the game from its start, so that the engine sees its
    /// repetitions, at the computer's level, with the page's seed for its dice.
    fn search(&self, ticket: Ticket, level: Level, seed: u64) -> Search {
        let played = self.table.played();
        let mut request =
            format!("rules {} position {}", self.table.settings().rules, played.start());
        if !played.moves().is_empty() {
            request.push_str(" moves");
            for m in played.moves() {
                request.push(' ');
                request.push_str(&m.to_string());
            }
        }
        request.push_str(&format!(" level {} seed {seed}", level.get()));
        Search { ticket: ticket.0, request }
    }

    /// The next game: same rules and level, colours swapped, its id drawn from `seed`.
    fn rematch(&self, seed: u64) -> Kept {
        Kept {
            game: GameId::from_bits(seed),
            date: self.kept.date.clone(),
            rules: self.kept.rules.clone(),
            level: self.kept.level,
            you: !self.kept.you,
            journal: Vec::new(),
        }
    }

    /// Both here: the person (it is their page) and the computer.
    fn presence(&self) -> PageAnswer {
        let here = SeatPresence { online: true, away_ms: None, claim_in_ms: None };
        Answer::Presence(PresenceView { white: here.clone(), black: here, watchers: 0 })
    }

    fn wake_at(&self) -> Option<u64> {
        self.table
            .next_deadline()
            .map(|at| u64::try_from(at.since_origin().as_millis()).unwrap_or(u64::MAX))
    }

    fn kept_now(&self) -> Kept {
        Kept { journal: self.table.journal().to_vec(), ..self.kept.clone() }
    }
}
