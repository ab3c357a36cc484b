//! `dara play`: a game against the engine in the terminal. Reads moves line by line, so it works
//! the same typed by hand or driven through a pipe or tmux.

use std::io::{BufRead, Write};

use anyhow::Context;
use dara::{Cell, Colour, Phase, Position, Ruleset, Status};
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

/// The board as text, top rank first, with the hands and whose turn it is.
pub fn draw(pos: &Position) -> String {
    let rules = pos.rules();
    let mut out = String::new();
    for rank in (0..rules.rows).rev() {
        out.push_str(&format!("{} ", rank + 1));
        for file in 0..rules.cols {
            let cell = Cell::new(file, rank).expect("the board fits");
            let c = if pos.stones(Colour::White).contains(cell) {
                'W'
            } else if pos.stones(Colour::Black).contains(cell) {
                'B'
            } else {
                '.'
            };
            out.push(' ');
            out.push(c);
        }
        out.push('\n');
    }
    out.push_str("  ");
    for file in 0..rules.cols {
        out.push(' ');
        out.push((b'a' + file) as char);
    }
    out.push('\n');
    out.push_str(&format!(
        "{} to {}; in hand: white {}, black {}; quiet plies {}\n",
        pos.side(),
        if pos.phase() == Phase::Placement { "place" } else { "move" },
        pos.hand(Colour::White),
        pos.hand(Colour::Black),
        pos.quiet()
    ));
    out
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
    let mut moves = Vec::new();
    let mut history = Vec::new();
    let stdin = std::io::stdin();
    let mut input = stdin.lock().lines();
    let mut stdout = std::io::stdout();
    println!("Dara, {rules}: you play {human}, the computer plays at level {level}.");
    println!("Type a move (c3, c3-c4, c3-c4xe5), `moves` for the legal moves, or `quit`.");
    let mut resigned = None;
    loop {
        println!();
        print!("{}", draw(&pos));
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
                            moves.push(m);
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
            moves.push(m);
        }
    }
    let result = match resigned {
        Some(Colour::White) => "0-1",
        Some(Colour::Black) => "1-0",
        None => pos.status().result_text(),
    };
    match resigned {
        Some(_) => println!("You resigned."),
        None => println!("{}", pos.status()),
    }
    let (white, black) = if human == Colour::White {
        ("You".to_owned(), format!("Computer level {level}"))
    } else {
        (format!("Computer level {level}"), "You".to_owned())
    };
    println!();
    print!("{}", super::record::write(rules, &white, &black, &moves, result));
    Ok(())
}
