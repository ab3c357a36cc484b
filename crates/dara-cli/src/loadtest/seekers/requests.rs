//! The lobby's requests as a seeker makes them (`crates/dara-server/PROTOCOL.md`, "Creating a
//! game"): an open table of its own (`POST /api/games`), "Play anyone" (`POST /api/seek`), and
//! the list of open tables it reads to sit at one (`GET /api/tables`). The server's request
//! types only read and its `OpenTable` only writes, so the driver writes and reads their shapes
//! itself, held to the server's own by the tests below.

use dara::{Colour, Ruleset};
use dara_server::browser::BrowserId;
use dara_table::clock::TimeControl;
use dara_table::{GameId, Opponent};
use rand::Rng;
use serde::{Deserialize, Serialize};

use super::mix::Choice;

/// The body of `POST /api/games` for an open table with the seeker's rules and clock, its
/// colour drawn by the server as the home page asks.
pub fn open_table(choice: Choice) -> String {
    #[derive(Serialize)]
    struct NewGame {
        opponent: Opponent,
        rules: String,
        first: &'static str,
        clock: Option<TimeControl>,
    }
    let body = NewGame {
        opponent: Opponent::Open,
        rules: choice.rules.to_string(),
        first: "random",
        clock: choice.clock,
    };
    serde_json::to_string(&body).expect("a new game always serialises")
}

/// The body of `POST /api/seek`: "Play anyone" with the seeker's rules and clock, from a browser
/// of its own (so it is never paired with itself, and never refused as another's second tab).
pub fn seek(choice: Choice, browser: &BrowserId) -> String {
    #[derive(Serialize)]
    struct Seek<'a> {
        rules: String,
        clock: Option<TimeControl>,
        browser: &'a BrowserId,
    }
    let body = Seek { rules: choice.rules.to_string(), clock: choice.clock, browser };
    serde_json::to_string(&body).expect("a seek always serialises")
}

/// A browser id as a page makes one: random, and kept for the seeker's whole visit.
pub fn browser(rng: &mut impl Rng) -> BrowserId {
    let id = format!("seeker-{:016x}{:016x}", rng.gen::<u64>(), rng.gen::<u64>());
    BrowserId::try_from(id).expect("32 hex digits after a word make an id")
}

/// One open table of `GET /api/tables` (the lobby socket's `tables` list), as far as a seeker
/// choosing where to sit reads it.
#[derive(Debug, Deserialize)]
pub struct Listed {
    pub game: GameId,
    pub rules: Ruleset,
    pub clock: Option<TimeControl>,
    /// The colour the sitter would play (read, to hold the shape to the server's).
    #[allow(dead_code)]
    pub seat: Colour,
}

impl Listed {
    /// Whether the table has exactly the seeker's settings: the lobby before "Play anyone" had
    /// nothing else to offer.
    pub fn is_exactly(&self, choice: Choice) -> bool {
        self.rules == choice.rules && self.clock == choice.clock
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use dara_server::api::Seek;
    use dara_server::game::settings::NewGame;
    use dara_table::wire::OpenTable;
    use rand::rngs::SmallRng;
    use rand::SeedableRng;

    fn choice(text: &str) -> Choice {
        text.parse::<super::super::mix::Weighted>().unwrap().choice
    }

    #[test]
    fn the_server_reads_the_open_table_asked_for() {
        let c = choice("1:jaques,diagonal=yes@10+5");
        let settings = serde_json::from_str::<NewGame>(&open_table(c)).unwrap().check().unwrap();
        assert_eq!(settings.opponent, Opponent::Open);
        assert_eq!(settings.rules, c.rules);
        assert_eq!(settings.clock, c.clock);
        let untimed = choice("1:arcade@none");
        let settings =
            serde_json::from_str::<NewGame>(&open_table(untimed)).unwrap().check().unwrap();
        assert_eq!(settings.clock, None);
    }

    #[test]
    fn the_server_reads_the_seek() {
        let c = choice("1:ninja@3+2");
        let id = browser(&mut SmallRng::seed_from_u64(1));
        let read: Seek = serde_json::from_str(&seek(c, &id)).unwrap();
        assert_eq!(read.rules.as_deref(), Some("ninja"));
        assert_eq!(read.clock, c.clock);
        assert_eq!(read.browser, Some(id));
    }

    #[test]
    fn the_driver_reads_the_servers_tables() {
        let c = choice("1:arcade,rows=6,stones=15@15+10");
        let table = OpenTable {
            game: GameId::from_bits(0xabc),
            rules: c.rules,
            clock: c.clock,
            seat: Colour::Black,
        };
        let text = serde_json::to_string(&vec![table]).unwrap();
        let listed: Vec<Listed> = serde_json::from_str(&text).unwrap();
        assert_eq!(listed[0].game, GameId::from_bits(0xabc));
        assert!(listed[0].is_exactly(c));
        assert!(!listed[0].is_exactly(choice("1:arcade,rows=6,stones=15@5+3")));
        assert!(!listed[0].is_exactly(choice("1:arcade@15+10")));
    }
}
