//! The page's table asked and answered in text, as the module's interface carries it: a request
//! is a JSON object with the page's time (`now`, milliseconds of `Date.now()`), a seed for the
//! computer's dice, and either the game to open (`"open": kept`) or a call (`"call": {"message":
//! text}`, see [`Call`]); the answer is `{"ok": answered}` ([`crate::Answered`]) or
//! `{"error": why}`. Beside it, the rules' answer about a position ([`judge`]) and a game
//! record read ([`read_record`]), each asked and answered as the server's own requests.
//!
//! Plain shapes only (no flattened or internally tagged parts): serde reads those through a
//! buffer of its own, which in WebAssembly weighed more than the rest of the reading.

use serde::{Deserialize, Serialize};

use dara_table::view::{Answer, Question, ReadRecord, RecordRequest};

use crate::kept::Kept;
use crate::table::{Answered, Call, PageTable};

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Asked {
    now: u64,
    seed: u64,
    #[serde(default)]
    open: Option<Kept>,
    #[serde(default)]
    call: Option<Call>,
}

#[derive(Serialize)]
#[serde(rename_all = "kebab-case")]
enum Reply<'a> {
    Ok(Box<Answered>),
    Error(&'a str),
}

/// Answers the request `text` to the page's table, `open` being the game it has open, if any.
pub fn answer(open: &mut Option<PageTable>, text: &str) -> String {
    let asked: Asked = match serde_json::from_str(text) {
        Ok(asked) => asked,
        Err(e) => return failed(&format!("the request does not read: {e}")),
    };
    let answered = match (asked.open, asked.call) {
        (Some(kept), None) => match PageTable::open(kept, asked.now) {
            Ok(table) => open.insert(table).hello(asked.now, asked.seed),
            Err(why) => return failed(&why),
        },
        (None, Some(call)) => match open {
            Some(table) => table.call(call, asked.now, asked.seed),
            None => return failed("no game is open"),
        },
        _ => return failed("a request either opens a game or makes a call"),
    };
    written(&Reply::Ok(Box::new(answered)))
}

/// Answers a question about a position (`{"position": ..., "rules": ..., "move": ...}`, as
/// `POST /api/position` takes it) with `{"ok": answer}` or `{"error": why}`, as the server
/// would: the pages that teach judge moves with it where the module runs, offline too.
pub fn judge(text: &str) -> String {
    #[derive(Serialize)]
    #[serde(rename_all = "kebab-case")]
    enum Judged<'a> {
        Ok(Box<Answer>),
        Error(&'a str),
    }
    let answered = serde_json::from_str::<Question>(text)
        .map_err(|e| format!("the question does not read: {e}"))
        .and_then(|question| question.answer());
    let judged = match answered {
        Ok(answer) => serde_json::to_string(&Judged::Ok(Box::new(answer))),
        Err(why) => serde_json::to_string(&Judged::Error(&why)),
    };
    judged.expect("an answer always serialises")
}

/// Reads a game record (`{"record": text}`, as `POST /api/record` takes it: tags and turns,
/// NOTATION.md) with `{"ok": game}` or `{"error": why}`, as the server would: every turn is
/// played by the rules, an illegal one named by its number and text. The analysis board reads
/// a pasted record with it when the server does not answer.
pub fn read_record(text: &str) -> String {
    #[derive(Serialize)]
    #[serde(rename_all = "kebab-case")]
    enum Read<'a> {
        Ok(Box<ReadRecord>),
        Error(&'a str),
    }
    let read = serde_json::from_str::<RecordRequest>(text)
        .map_err(|e| format!("the request does not read: {e}"))
        .and_then(|asked| asked.read());
    let written = match read {
        Ok(game) => serde_json::to_string(&Read::Ok(Box::new(game))),
        Err(why) => serde_json::to_string(&Read::Error(&why)),
    };
    written.expect("an answer always serialises")
}

fn failed(why: &str) -> String {
    written(&Reply::Error(why))
}

fn written(reply: &Reply<'_>) -> String {
    serde_json::to_string(reply).expect("an answer always serialises")
}
