//! `dara analyse`: search one position and print every iteration.

use std::path::PathBuf;
use std::time::Duration;

use anyhow::Context;
use dara::{Position, Ruleset};
use dara_engine::{Limits, Searcher, Style};

/// Search a position and print each iteration: depth, score, nodes, speed and line.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// The ruleset, e.g. `arcade` or `jaques,diagonal=yes` (a record's own Rules tag wins).
    #[arg(long, default_value = "arcade")]
    rules: String,
    /// The position (five fields); default the start position.
    #[arg(long, conflicts_with = "record")]
    position: Option<String>,
    /// A game record: the position after its last move is analysed.
    #[arg(long)]
    record: Option<PathBuf>,
    /// Search this long (default 2000 ms unless --depth is given).
    #[arg(long)]
    movetime: Option<u64>,
    /// Search to this depth.
    #[arg(long)]
    depth: Option<u32>,
    /// Transposition table size in MiB.
    #[arg(long, default_value_t = 64)]
    hash: usize,
    /// Movement-phase tablebases (`dara tablebase build`): positions in them are answered
    /// exactly, as "win in N plies" (to the next capture) or "drawn".
    #[arg(long)]
    tablebases: Option<PathBuf>,
}

pub fn run(args: Args) -> anyhow::Result<()> {
    let mut rules: Ruleset = args.rules.parse().context("--rules")?;
    let (pos, history) = match (&args.position, &args.record) {
        (Some(text), _) => (Position::from_text(text, rules).context("--position")?, Vec::new()),
        (None, Some(path)) => {
            let record = crate::game_input::load_record(path)?;
            rules = *record.rules();
            println!("record {}: {} moves", path.display(), record.moves().len());
            let mut positions = record.positions();
            let last = positions.pop().expect("a record has a start position");
            (last, positions.iter().map(Position::hash).collect())
        }
        (None, None) => (Position::start(rules), Vec::new()),
    };
    let limits = Limits {
        depth: args.depth,
        movetime: match (args.movetime, args.depth) {
            (Some(ms), _) => Some(Duration::from_millis(ms)),
            (None, None) => Some(Duration::from_millis(2000)),
            (None, Some(_)) => None,
        },
        ..Limits::default()
    };
    println!("rules {rules}");
    println!("position {pos}");
    let mut searcher = Searcher::new(args.hash);
    if let Some(dir) = &args.tablebases {
        let tb = crate::commands::tablebase::load(rules, dir)?;
        if let Ok(outcome) = tb.probe_outcome(&pos) {
            println!("tablebase {}", crate::commands::tablebase::outcome_text(outcome));
        }
        searcher.set_tablebase(Some(std::sync::Arc::new(tb)));
    }
    let outcome = searcher.search(&pos, &history, &limits, &Style::default(), &mut |it| {
        let pv: Vec<String> = it.pv.iter().map(ToString::to_string).collect();
        println!(
            "depth {:>2} seldepth {:>2} score {:<9} nodes {:>10} nps {:>9} time {:>6} pv {}",
            it.depth,
            it.seldepth,
            it.score.to_string(),
            it.nodes,
            it.nps(),
            it.time.as_millis(),
            pv.join(" ")
        );
    });
    match outcome.best {
        Some(m) => println!("bestmove {m}"),
        None => println!("bestmove none ({})", pos.status()),
    }
    Ok(())
}
