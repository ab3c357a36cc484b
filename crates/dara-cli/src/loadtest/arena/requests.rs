//! The arena's requests as the driver makes them and its socket's messages as it reads them
//! (`crates/dara-server/PROTOCOL.md`, "Arenas"). The server's request types only read and its
//! board only writes, so the driver writes and reads their shapes itself, held to the server's
//! own by the tests below.

use dara_table::clock::TimeControl;
use serde::{Deserialize, Serialize};

/// The body of `POST /api/arenas`: a private arena of `minutes` starting at `starts` (ms since
/// 1970; a time gone by is now).
pub fn new_arena(rules: &str, clock: TimeControl, minutes: u64, starts: u64) -> String {
    #[derive(Serialize)]
    struct NewArena<'a> {
        rules: &'a str,
        clock: TimeControl,
        minutes: u64,
        starts: u64,
    }
    let body = NewArena { rules, clock, minutes, starts };
    serde_json::to_string(&body).expect("an arena always serialises")
}

/// The answer to `POST /api/arenas`.
#[derive(Debug, Deserialize)]
pub struct Made {
    /// The arena's id, for its paths.
    pub arena: String,
}

/// The body of `POST /api/arenas/<id>/join`.
pub fn join(player: &str, name: &str) -> String {
    #[derive(Serialize)]
    struct Join<'a> {
        player: &'a str,
        name: &'a str,
    }
    serde_json::to_string(&Join { player, name }).expect("a join always serialises")
}

/// The body of `POST /api/arenas/<id>/pause` (and `resume`, `leave`).
pub fn player(player: &str) -> String {
    #[derive(Serialize)]
    struct Player<'a> {
        player: &'a str,
    }
    serde_json::to_string(&Player { player }).expect("a request always serialises")
}

/// The arena socket's hello from a player.
pub fn hello(player: &str) -> String {
    serde_json::json!({"t": "hello", "d": {"player": player}}).to_string()
}

/// A message of the arena's socket, as far as a player's page acts on it: its type, and in the
/// standings the game the player is to play now. The rest of a message (the top ten, the games
/// being played) is passed over without being kept.
#[derive(Debug, Deserialize)]
pub struct ArenaMessage<'a> {
    #[serde(borrow)]
    pub t: &'a str,
    #[serde(default, borrow)]
    pub d: Option<ArenaData<'a>>,
}

/// The standings' fields the driver reads.
#[derive(Debug, Default, Deserialize)]
#[serde(default)]
pub struct ArenaData<'a> {
    /// The player's game being played, only on their own socket; null between games.
    #[serde(borrow)]
    pub game: Option<YourGame<'a>>,
}

/// The player's game: its table, where their seat is their token.
#[derive(Debug, Deserialize)]
pub struct YourGame<'a> {
    #[serde(borrow)]
    pub id: &'a str,
}

impl<'a> ArenaMessage<'a> {
    /// Reads one text frame.
    ///
    /// # Errors
    /// When the frame is not a message of the shape the protocol describes.
    pub fn parse(text: &'a str) -> Result<ArenaMessage<'a>, serde_json::Error> {
        serde_json::from_str(text)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use dara_server::arena_api::{Join, NewArena, Player};

    #[test]
    fn the_server_reads_the_requests_the_driver_makes() {
        let clock = TimeControl { initial: 180, increment: 0 };
        let asked: NewArena =
            serde_json::from_str(&new_arena("arcade", clock, 5, 1_796_497_200_000)).unwrap();
        assert_eq!(
            (asked.rules.as_deref(), asked.clock, asked.minutes),
            (Some("arcade"), clock, 5)
        );
        assert_eq!(asked.starts, Some(1_796_497_200_000));
        let token = "load-0001-0123456789abcdef";
        let joined: Join = serde_json::from_str(&join(token, "Player 1")).unwrap();
        assert_eq!((joined.player.as_str(), joined.name.as_str()), (token, "Player 1"));
        let asked: Player = serde_json::from_str(&player(token)).unwrap();
        assert_eq!(asked.player.as_str(), token);
    }

    #[test]
    fn the_driver_reads_its_game_from_the_standings() {
        // PROTOCOL.md's standings, as the board writes them (crate::arena::board is the
        // server's own).
        let text = r#"{"t":"standings","d":{"arena":{"id":"3f9c0a1b2c3d4e5f","rules":"arcade",
            "clock":"3+0","starts":0,"minutes":5,"scheduled":false},"phase":"running",
            "time_left":1234,"players":2,"top":[{"rank":1,"name":"P \"1\"","score":0,
            "fire":false,"games":0,"wins":0,"berserks":0,"sheet":[],"presence":"active",
            "playing":true}],"mine":null,"playing":[{"game":3,"pale":{"name":"A","rank":1},
            "dark":{"name":"B","rank":2}}],"tie_break":"...","game":{"id":"0123456789abcdef",
            "no":3,"colour":"white","url":"/g/0123456789abcdef#seat=tok"}}}"#;
        let msg = ArenaMessage::parse(text).unwrap();
        assert_eq!(msg.t, "standings");
        assert_eq!(msg.d.unwrap().game.unwrap().id, "0123456789abcdef");
        let between = r#"{"t":"standings","d":{"phase":"running","game":null}}"#;
        assert!(ArenaMessage::parse(between).unwrap().d.unwrap().game.is_none());
        let podium = r#"{"t":"podium","d":{"podium":[],"uncounted":[3]}}"#;
        let msg = ArenaMessage::parse(podium).unwrap();
        assert_eq!((msg.t, msg.d.unwrap().game.is_none()), ("podium", true));
    }
}
