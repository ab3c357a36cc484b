//! The engine protocol of `ENGINE.md`: a line loop over any reader and writer. Searches run on
//! their own thread so that `stop`, `isready` and `quit` are read while the engine thinks.

use std::io::{self, BufRead, Write};
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;
use std::time::Duration;

use dara::{Colour, Position, Ruleset};
use dara_tablebase::Tablebase;

use crate::level::Level;
use crate::limits::{ClockReading, Limits};
use crate::rng::Rng;
use crate::search::{Iteration, Searcher};

/// The name the engine gives in the handshake.
pub const NAME: &str = concat!("dara ", env!("CARGO_PKG_VERSION"));
/// The author the engine gives in the handshake.
pub const AUTHOR: &str = "the dara authors";
const DEFAULT_HASH_MIB: usize = 16;

/// Where the engine writes: shared between the command loop and the search thread, each line
/// written whole and flushed.
#[derive(Debug)]
struct Out<W>(Arc<Mutex<W>>);

impl<W> Clone for Out<W> {
    fn clone(&self) -> Self {
        Out(Arc::clone(&self.0))
    }
}

impl<W: Write> Out<W> {
    fn line(&self, text: &str) {
        let mut w = self.0.lock().unwrap_or_else(|e| e.into_inner());
        // A driver that went away is not the engine's problem: it will read `quit` or EOF next.
        let _ = writeln!(w, "{text}");
        let _ = w.flush();
    }
}

/// The state the protocol keeps between commands.
#[derive(Debug)]
struct Engine<W: Write + Send + 'static> {
    out: Out<W>,
    rules: Ruleset,
    pos: Position,
    /// Hashes of the positions before `pos` in the game.
    history: Vec<u64>,
    level: Level,
    hash_mib: usize,
    seed: u64,
    rng: Rng,
    searcher: Option<Searcher>,
    stop: Arc<AtomicBool>,
    running: Option<JoinHandle<Searcher>>,
    /// Whether the running search is `go infinite` (which only `stop` or a new command ends).
    running_infinite: bool,
    /// Where the tablebase files are (`setoption name Tablebases value <dir>`).
    tablebase_dir: Option<PathBuf>,
    /// The tables loaded from there, for the ruleset they were loaded for.
    tablebase: Option<Arc<Tablebase>>,
}

/// Runs the protocol until `quit` or the end of `input`.
///
/// # Errors
/// Only a failure to read `input`.
pub fn run<R: BufRead, W: Write + Send + 'static>(input: R, output: W) -> io::Result<()> {
    run_with_tablebases(input, output, None)
}

/// Runs the protocol as [`run`], answering from the tablebases in `tablebase_dir` (as if
/// `setoption name Tablebases value <dir>` came first).
///
/// # Errors
/// Only a failure to read `input`.
pub fn run_with_tablebases<R: BufRead, W: Write + Send + 'static>(
    input: R,
    output: W,
    tablebase_dir: Option<PathBuf>,
) -> io::Result<()> {
    let searcher = Searcher::new(DEFAULT_HASH_MIB);
    let stop = searcher.stop_flag();
    let rules = Ruleset::default();
    let mut engine = Engine {
        out: Out(Arc::new(Mutex::new(output))),
        rules,
        pos: Position::start(rules),
        history: Vec::new(),
        level: Level::MAX,
        hash_mib: DEFAULT_HASH_MIB,
        seed: 0,
        rng: Rng::new(0),
        searcher: Some(searcher),
        stop,
        running: None,
        running_infinite: false,
        tablebase_dir,
        tablebase: None,
    };
    for line in input.lines() {
        let line = line?;
        if !engine.command(line.trim_end_matches('\r')) {
            break;
        }
    }
    engine.finish_search(true);
    Ok(())
}

impl<W: Write + Send + 'static> Engine<W> {
    fn error(&self, text: impl AsRef<str>) {
        self.out.line(&format!("error {}", text.as_ref()));
    }

    /// Handles one line; false to quit.
    fn command(&mut self, line: &str) -> bool {
        let words: Vec<&str> = line.split_whitespace().collect();
        let Some(&first) = words.first() else {
            return true;
        };
        let rest = &words[1..];
        match first {
            "dep" => {
                self.out.line(&format!("id name {NAME}"));
                self.out.line(&format!("id author {AUTHOR}"));
                self.out.line("option name Level type spin default 8");
                self.out.line(&format!("option name Hash type spin default {DEFAULT_HASH_MIB}"));
                self.out.line("option name Seed type spin default 0");
                self.out.line("option name Threads type spin default 1");
                self.out.line("depok");
            }
            "isready" => {
                // Earlier commands are done once a bounded search has answered; an infinite
                // search would never be, so it keeps running.
                if !self.running_infinite {
                    self.finish_search(false);
                }
                self.out.line("readyok");
            }
            "stop" => self.finish_search(true),
            "quit" => return false,
            "setoption" => {
                self.finish_search(self.running_infinite);
                self.set_option(rest);
            }
            "newgame" => {
                self.finish_search(self.running_infinite);
                self.searcher_mut().clear();
                self.rng = Rng::new(self.seed);
                self.history.clear();
                self.pos = Position::start(self.rules);
            }
            "rules" => {
                self.finish_search(self.running_infinite);
                match rest.join(" ").parse::<Ruleset>() {
                    Ok(rules) if !rest.is_empty() => {
                        self.rules = rules;
                        self.pos = Position::start(rules);
                        self.history.clear();
                    }
                    Ok(_) => self.error("rules: no ruleset given"),
                    Err(e) => self.error(format!("rules: {e}")),
                }
            }
            "position" => {
                self.finish_search(self.running_infinite);
                match parse_position(rest, self.rules) {
                    Ok((pos, history)) => {
                        self.pos = pos;
                        self.history = history;
                    }
                    Err(e) => self.error(e),
                }
            }
            "go" => {
                self.finish_search(self.running_infinite);
                match parse_go(rest, self.pos.side()) {
                    Ok(limits) => self.go(limits),
                    Err(e) => self.error(e),
                }
            }
            _ => self.error(format!("unknown command: {line}")),
        }
        true
    }

    fn searcher_mut(&mut self) -> &mut Searcher {
        self.searcher.get_or_insert_with(|| Searcher::new(DEFAULT_HASH_MIB))
    }

    fn set_option(&mut self, words: &[&str]) {
        // setoption name <n> value <v>; names may not contain spaces here.
        let (name, value) = match words {
            ["name", name, "value", value @ ..] if !value.is_empty() => (*name, value.join(" ")),
            _ => return self.error("setoption: expected `setoption name <name> value <value>`"),
        };
        match name.to_ascii_lowercase().as_str() {
            "level" => match value.parse::<Level>() {
                Ok(level) => self.level = level,
                Err(e) => self.error(format!("setoption Level: {e}")),
            },
            "hash" => match value.parse::<usize>() {
                Ok(mib) if (1..=4096).contains(&mib) => {
                    self.hash_mib = mib;
                    self.searcher_mut().resize(mib);
                }
                _ => self.error(format!("setoption Hash: expected 1 to 4096 MiB, not {value}")),
            },
            "seed" => match value.parse::<u64>() {
                Ok(seed) => {
                    self.seed = seed;
                    self.rng = Rng::new(seed);
                }
                Err(_) => self.error(format!("setoption Seed: expected a number, not {value}")),
            },
            "tablebases" => {
                self.tablebase_dir = Some(PathBuf::from(value));
                self.tablebase = None;
            }
            // The search is single-threaded: the option is accepted so drivers may set it.
            "threads" => match value.parse::<u32>() {
                Ok(n) if n >= 1 => {}
                _ => self
                    .error(format!("setoption Threads: expected a positive number, not {value}")),
            },
            _ => self.error(format!("setoption: unknown option {name}")),
        }
    }

    fn go(&mut self, limits: Limits) {
        let pos = self.pos.clone();
        if pos.legal_moves().is_empty() {
            self.out.line("bestmove none");
            return;
        }
        let (search_limits, style) = self.level.plan(&limits, &mut self.rng);
        let history = self.history.clone();
        let tablebase = self.tables_for_rules();
        let mut searcher = self.searcher.take().unwrap_or_else(|| Searcher::new(self.hash_mib));
        searcher.set_tablebase(tablebase);
        let out = self.out.clone();
        let stop = Arc::clone(&self.stop);
        stop.store(false, Ordering::SeqCst);
        let infinite = limits.infinite;
        self.running_infinite = infinite;
        self.running = Some(std::thread::spawn(move || {
            let outcome = searcher.search(&pos, &history, &search_limits, &style, &mut |it| {
                out.line(&info_line(it));
            });
            // `go infinite` answers only when told to stop, even if the search ended by itself.
            while infinite && !stop.load(Ordering::SeqCst) {
                std::thread::sleep(Duration::from_millis(2));
            }
            match outcome.best {
                Some(m) => out.line(&format!("bestmove {m}")),
                None => out.line("bestmove none"),
            }
            searcher
        }));
    }

    /// The tables for the current ruleset, loaded from the tablebase directory the first time
    /// they are wanted (and again when the ruleset changes). A ruleset without tables, or a
    /// directory without files, searches without them; a damaged file is reported.
    fn tables_for_rules(&mut self) -> Option<Arc<Tablebase>> {
        let dir = self.tablebase_dir.clone()?;
        if let Some(tb) = &self.tablebase {
            if tb.applies_to(&self.rules) {
                return Some(Arc::clone(tb));
            }
        }
        let mut tb = Tablebase::new(self.rules).ok()?;
        match tb.load_dir(&dir, self.rules.cells()) {
            Ok(0) => None,
            Ok(_) => {
                let tb = Arc::new(tb);
                self.tablebase = Some(Arc::clone(&tb));
                Some(tb)
            }
            Err(e) => {
                self.error(format!("tablebases: {e}"));
                self.tablebase_dir = None;
                None
            }
        }
    }

    /// Waits for the running search, if any, and takes its searcher back (`bestmove` is printed
    /// by the search thread). With `now`, the search is told to stop first.
    fn finish_search(&mut self, now: bool) {
        if let Some(handle) = self.running.take() {
            self.running_infinite = false;
            if now {
                self.stop.store(true, Ordering::SeqCst);
            }
            match handle.join() {
                Ok(searcher) => self.searcher = Some(searcher),
                Err(_) => {
                    self.error("the search failed; starting afresh");
                    self.searcher = Some(Searcher::new(self.hash_mib));
                }
            }
        }
    }
}

/// An `info` line in the order `ENGINE.md` gives.
pub fn info_line(it: &Iteration) -> String {
    let mut line = format!(
        "info depth {} seldepth {} score {} nodes {} nps {} time {}",
        it.depth,
        it.seldepth,
        it.score,
        it.nodes,
        it.nps(),
        it.time.as_millis()
    );
    if it.tb_hits > 0 {
        line.push_str(&format!(" tb {}", it.tb_hits));
    }
    if !it.pv.is_empty() {
        line.push_str(" pv");
        for m in &it.pv {
            line.push(' ');
            line.push_str(&m.to_string());
        }
    }
    line
}

/// Reads the words after `position` (`start` or five position fields, then `moves` and the
/// moves) in `rules`: the position reached, and the hashes of the positions before it, oldest
/// first, for the search to see repetitions.
///
/// # Errors
/// A message naming the field or the move at fault.
pub fn parse_position(words: &[&str], rules: Ruleset) -> Result<(Position, Vec<u64>), String> {
    let moves_at = words.iter().position(|w| *w == "moves").unwrap_or(words.len());
    let (mut setup, moves) = words.split_at(moves_at);
    // `position fen <fields>` is accepted too, as drivers written for UCI tend to send it.
    if setup.first() == Some(&"fen") {
        setup = &setup[1..];
    }
    let mut pos = match setup {
        ["start"] => Position::start(rules),
        [] => return Err("position: expected `start` or five position fields".into()),
        fields if fields.len() == 5 => {
            Position::from_text(&fields.join(" "), rules).map_err(|e| format!("position: {e}"))?
        }
        fields => {
            return Err(format!(
                "position: expected `start` or five position fields, got {} words",
                fields.len()
            ))
        }
    };
    let mut history = Vec::new();
    for text in moves.iter().skip(1) {
        let m = pos.parse_move(text).map_err(|e| format!("position: move {text}: {e}"))?;
        let before = pos.hash();
        pos.play(m).map_err(|e| format!("position: illegal move {text}: {e}"))?;
        history.push(before);
    }
    Ok((pos, history))
}

/// Reads the words after `go`.
///
/// # Errors
/// A message naming the word at fault.
pub fn parse_go(words: &[&str], side: Colour) -> Result<Limits, String> {
    let mut limits = Limits::default();
    let (mut wtime, mut btime, mut winc, mut binc) = (None, None, 0, 0);
    let mut i = 0;
    while i < words.len() {
        let word = words[i];
        if word == "infinite" {
            limits.infinite = true;
            i += 1;
            continue;
        }
        let value = words
            .get(i + 1)
            .ok_or_else(|| format!("go: {word} needs a value"))?
            .parse::<u64>()
            .map_err(|_| format!("go: {word} needs a whole number, not {}", words[i + 1]))?;
        match word {
            "movetime" => limits.movetime = Some(Duration::from_millis(value)),
            "depth" => limits.depth = Some(value.clamp(1, 127) as u32),
            "nodes" => limits.nodes = Some(value.max(1)),
            "wtime" => wtime = Some(value),
            "btime" => btime = Some(value),
            "winc" => winc = value,
            "binc" => binc = value,
            _ => return Err(format!("go: unknown word {word}")),
        }
        i += 2;
    }
    let (time, inc) = match side {
        Colour::White => (wtime, winc),
        Colour::Black => (btime, binc),
    };
    if let Some(time) = time {
        limits.clock = Some(ClockReading {
            time: Duration::from_millis(time),
            increment: Duration::from_millis(inc),
        });
    }
    Ok(limits)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A writer whose text the test can read while the engine still holds it.
    #[derive(Clone, Default)]
    struct Shared(Arc<Mutex<Vec<u8>>>);

    impl Write for Shared {
        fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
            self.0.lock().unwrap().extend_from_slice(buf);
            Ok(buf.len())
        }
        fn flush(&mut self) -> io::Result<()> {
            Ok(())
        }
    }

    fn talk(script: &str) -> Vec<String> {
        let out = Shared::default();
        run(io::Cursor::new(script.to_owned()), out.clone()).unwrap();
        let text = String::from_utf8(out.0.lock().unwrap().clone()).unwrap();
        text.lines().map(str::to_owned).collect()
    }

    #[test]
    fn handshake() {
        let lines = talk("dep\nisready\nquit\n");
        assert_eq!(lines[0], format!("id name {NAME}"));
        assert_eq!(lines[1], format!("id author {AUTHOR}"));
        assert!(lines[2..6].iter().all(|l| l.starts_with("option name ")));
        assert_eq!(lines[6..], ["depok", "readyok"]);
    }

    #[test]
    fn searches_and_answers_a_legal_move() {
        let lines = talk(
            "rules arcade\nposition 4W1/5B/WWW1W1/4WB/1B2WB w 0 0 1\ngo depth 3\nisready\nquit\n",
        );
        let info = lines.iter().find(|l| l.starts_with("info depth 3")).unwrap();
        let order: Vec<usize> = ["depth", "seldepth", "score", "nodes", "nps", "time", "pv"]
            .iter()
            .map(|w| info.find(&format!(" {w} ")).unwrap())
            .collect();
        assert!(order.windows(2).all(|w| w[0] < w[1]), "{info}");
        let best = lines.iter().find_map(|l| l.strip_prefix("bestmove ")).unwrap();
        let pos =
            Position::from_text("4W1/5B/WWW1W1/4WB/1B2WB w 0 0 1", Ruleset::default()).unwrap();
        assert!(pos.legal_moves().contains(&pos.parse_move(best).unwrap()));
    }

    #[test]
    fn stop_ends_an_infinite_search() {
        let lines = talk("position start\ngo infinite\nstop\nisready\n");
        let n = lines.len();
        assert!(lines[n - 2].starts_with("bestmove "), "{lines:?}");
        assert_eq!(lines[n - 1], "readyok");
    }

    #[test]
    fn errors_leave_the_position_in_force() {
        let lines = talk(
            "position start moves c3 d4\nposition start moves c3 c3\nfrobnicate\nrules arcade,rows=9\n\
             setoption name Level value 11\ngo nodes 500\nisready\n",
        );
        assert!(lines[0].starts_with("error position: "), "{lines:?}");
        assert!(lines[0].contains("c3"));
        assert_eq!(lines[1], "error unknown command: frobnicate");
        assert!(lines[2].starts_with("error rules: "));
        assert!(lines[3].starts_with("error setoption Level: "));
        // Two stones placed: the third is White's, so a placement on an empty cell.
        let best = lines.iter().find_map(|l| l.strip_prefix("bestmove ")).unwrap();
        assert!(best != "c3" && best != "d4" && best.len() == 2, "{best}");
    }

    #[test]
    fn position_fen_is_accepted() {
        let lines = talk("position fen 6/6/6/5B/WW2BB w 0 0 0\ngo depth 2\nisready\n");
        assert_eq!(lines, ["bestmove none", "readyok"]);
    }

    #[test]
    fn no_move_when_the_game_is_over() {
        let lines = talk("position 6/6/6/5B/WW2BB w 0 0 0\ngo depth 2\nisready\n");
        assert_eq!(lines, ["bestmove none", "readyok"]);
    }

    #[test]
    fn level_and_seed_make_play_repeatable() {
        let script = "setoption name Level value 2\nsetoption name Seed value 9\nnewgame\n\
                      position start moves c3 d4 b2\ngo\nisready\n";
        let a = talk(script);
        let b = talk(script);
        assert_eq!(a.last().unwrap(), "readyok");
        let best = |l: &[String]| l.iter().find(|x| x.starts_with("bestmove")).cloned();
        assert_eq!(best(&a), best(&b));
    }

    #[test]
    fn go_words() {
        let l = parse_go(&["wtime", "1000", "btime", "2000", "binc", "50"], Colour::Black).unwrap();
        assert_eq!(l.clock.unwrap().time, Duration::from_millis(2000));
        assert!(parse_go(&["movetime"], Colour::White).is_err());
        assert!(parse_go(&["depth", "x"], Colour::White).is_err());
        assert!(parse_go(&["sideways", "3"], Colour::White).is_err());
    }
}
