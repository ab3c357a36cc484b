//! `dara play`: a game against the engine in the terminal. Reads moves line by line, so it works
//! the same typed by hand or driven through a pipe or tmux.

use std::io::{BufRead, Write};

use anyhow::Context;
use dara::record::{GameResult, Record};
use dara::{Colour, Position, Ruleset, Status};
use dara_engine::level::Level;
use dara_engine::rng::Rng;
use dara_engine::{Limits, Searcher};

/// Play against the engine: type moves in notation (`c3`, `c3-c4`, `c3-c4xe5`); `moves` lists
/// the legal ones, `quit` resigns.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// The ruleset, e.g. `arcade` or `jaques,diagonal=yes`.
    #[arg(long, default_value = "arcade")]
    rules: String,
    /// The engine's level, 1 (beginner) to 8 (full strength).
    #[arg(long, default_value_t = 4)]
    level: u8,
    /// Your colour: white (places and moves first) or black.
    #[arg(long, default_value = "white")]
    colour: String,
    /// Seed of the engine's randomness.
    #[arg(long, default_value_t = 0)]
    seed: u64,
}

pub fn run(args: Args) -> anyhow::Result<()> {
    let rules: Ruleset = args.rules.parse().context("--rules")?;
    let level: Level = args.level.to_string().parse().context("--level")?;
    let human = match args.colour.as_str() {
        "white" | "w" => Colour::White,
        "black" | "b" => Colour::Black,
        other => anyhow::bail!("--colour must be white or black, not {other:?}"),
    };
    let mut searcher = Searcher::new(16);
    let mut rng = Rng::new(args.seed);
    let mut pos = Position::start(rules);
    let mut record = Record::new(pos.clone());
    let mut history = Vec::new();
    let mut last = None;
    let stdin = std::io::stdin();
    let mut input = stdin.lock().lines();
    let mut stdout = std::io::stdout();
    println!("Dara, {rules}: you play {human}, the computer plays at level {level}.");
    println!("Type a move (c3, c3-c4, c3-c4xe5), `moves` for the legal moves, or `quit`.");
    let mut resigned = None;
    let mut show = true;
    loop {
        if std::mem::take(&mut show) {
            println!();
            print!("{}", crate::diagram::draw(&pos, last));
        }
        if pos.status() != Status::Ongoing {
            break;
        }
        if pos.side() == human {
            print!("your move: ");
            stdout.flush()?;
            let Some(line) = input.next() else {
                resigned = Some(human);
                break;
            };
            let line = line?;
            let text = line.trim();
            match text {
                "" => continue,
                "quit" | "resign" => {
                    resigned = Some(human);
                    break;
                }
                "moves" | "help" => {
                    let legal: Vec<String> =
                        pos.legal_moves().iter().map(ToString::to_string).collect();
                    println!("legal moves: {}", legal.join(" "));
                    continue;
                }
                _ => {}
            }
            match pos.parse_move(text) {
                Ok(m) => {
                    let before = pos.hash();
                    match pos.play(m) {
                        Ok(()) => {
                            history.push(before);
                            record.push(m)?;
                            last = Some(m);
                            show = true;
                        }
                        Err(e) => println!("not legal here: {e}"),
                    }
                }
                Err(e) => println!("no: {e} (type `moves` for the legal moves)"),
            }
        } else {
            let (limits, style) = level.plan(&Limits::default(), &mut rng);
            let out = searcher.search(&pos, &history, &limits, &style, &mut |_| {});
            let m = out.best.context("the engine found no move in an ongoing game")?;
            println!("computer plays {m} ({})", out.score);
            history.push(pos.hash());
            pos.play_unchecked(m);
            record.push(m)?;
            last = Some(m);
            show = true;
        }
    }
    match resigned {
        Some(colour) => {
            record.result =
                if colour == Colour::White { GameResult::BlackWins } else { GameResult::WhiteWins };
            println!("You resigned.");
        }
        None => println!("{}", pos.status()),
    }
    let computer = format!("Computer level {level}");
    let (white, black) = if human == Colour::White {
        ("You", computer.as_str())
    } else {
        (computer.as_str(), "You")
    };
    record.set_tag("Event", "Casual game");
    record.set_tag("White", white);
    record.set_tag("Black", black);
    println!();
    println!("{record}");
    Ok(())
}
