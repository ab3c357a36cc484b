//! `dara match`: two players over many games; W/D/L, Elo and an SPRT verdict.

use anyhow::{bail, Context};
use dara::Ruleset;
use dara_engine::matches::{self, MatchConfig, PlayerSpec, Sprt, Termination};

/// Play two players against each other in colour-swapped pairs from random placement openings.
/// Players: `level:N` (1..8; `level:N@MS` with its own ms per move; `+tables` after either to
/// search with the tablebases of `--tablebases`), `budget:<fields>` (a level not yet in the
/// table: `budget:depth=4,nodes=40000,noise=40,blunder=0.06`; fields depth, nodes, movetime,
/// noise, blunder, overlook, careless), `random`, `greedy` (captures whenever it can, otherwise
/// random), `material4`, `cmd:<command speaking ENGINE.md>`.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// The first player (results are from its side).
    first: String,
    /// The second player.
    second: String,
    /// The ruleset of every game.
    #[arg(long, default_value = "arcade")]
    rules: String,
    /// Games to play (rounded up to an even number).
    #[arg(long, default_value_t = 100)]
    games: usize,
    /// Milliseconds per move for the engines (default: each level's own budget).
    #[arg(long)]
    movetime: Option<u64>,
    /// Nodes per move for the engines (load-independent and repeatable).
    #[arg(long)]
    nodes: Option<u64>,
    /// Games played at once (one thread each).
    #[arg(long, default_value_t = 2)]
    concurrency: usize,
    /// Seed of the openings and the players' dice.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Random placements that open each pair of games.
    #[arg(long, default_value_t = 4)]
    opening_plies: usize,
    /// Games longer than this many plies are scored as draws.
    #[arg(long, default_value_t = 400)]
    max_plies: usize,
    /// Sequential test, e.g. `--sprt elo0=0 elo1=5`; stops once decided.
    #[arg(long, num_args = 2, value_names = ["elo0=E0", "elo1=E1"])]
    sprt: Vec<String>,
    /// Print every game's result, not just every tenth.
    #[arg(long)]
    verbose: bool,
    /// Count how often the games reach the movement-phase tablebases in this directory, and
    /// which material they reach first; a `level:N+tables` player searches with them (the
    /// others are not given them).
    #[arg(long)]
    tablebases: Option<std::path::PathBuf>,
}

/// The first position of a game that the tables hold, as its material (side to move first).
fn first_in_tables(
    tb: &dara_tablebase::Tablebase,
    rules: Ruleset,
    moves: &[dara::Move],
) -> Option<dara_tablebase::Material> {
    let material = |pos: &dara::Position| {
        let side = pos.side();
        dara_tablebase::Material::new(pos.stones_on_board(side), pos.stones_on_board(!side))
    };
    let mut pos = dara::Position::start(rules);
    if tb.probe(&pos).is_ok() {
        return Some(material(&pos));
    }
    for &m in moves {
        pos.play_unchecked(m);
        if tb.probe(&pos).is_ok() {
            return Some(material(&pos));
        }
    }
    None
}

fn parse_sprt(words: &[String]) -> anyhow::Result<Option<Sprt>> {
    if words.is_empty() {
        return Ok(None);
    }
    let mut sprt = Sprt { elo0: 0.0, elo1: 5.0 };
    for word in words {
        let (name, value) = word.split_once('=').context("--sprt wants elo0=E0 elo1=E1")?;
        let value: f64 = value.parse().with_context(|| format!("--sprt {word}"))?;
        match name {
            "elo0" => sprt.elo0 = value,
            "elo1" => sprt.elo1 = value,
            _ => bail!("--sprt: unknown {name}, expected elo0 or elo1"),
        }
    }
    Ok(Some(sprt))
}

pub fn run(args: Args) -> anyhow::Result<()> {
    let mut config = MatchConfig {
        rules: args.rules.parse::<Ruleset>().context("--rules")?,
        first: args.first.parse::<PlayerSpec>()?,
        second: args.second.parse::<PlayerSpec>()?,
        games: args.games,
        movetime: args.movetime,
        nodes: args.nodes,
        concurrency: args.concurrency,
        seed: args.seed,
        opening_plies: args.opening_plies,
        max_plies: args.max_plies,
        sprt: parse_sprt(&args.sprt)?,
        tablebase: None,
    };
    let tables = match &args.tablebases {
        Some(dir) => {
            Some(std::sync::Arc::new(crate::commands::tablebase::load(config.rules, dir)?))
        }
        None => None,
    };
    if tables.is_none() && (config.first.wants_tables() || config.second.wants_tables()) {
        bail!(
            "a +tables player searches with the tablebases of --tablebases DIR: give the directory"
        );
    }
    config.tablebase = tables.clone();
    println!(
        "match {} vs {}, rules {}, {} games, movetime {}, nodes {}, concurrency {}, seed {}",
        config.first,
        config.second,
        config.rules,
        config.games.div_ceil(2) * 2,
        config.movetime.map_or("level".to_owned(), |ms| format!("{ms} ms")),
        config.nodes.map_or("level".to_owned(), |n| n.to_string()),
        config.concurrency,
        config.seed
    );
    let mut reached: std::collections::BTreeMap<dara_tablebase::Material, usize> =
        Default::default();
    let mut games_seen = 0usize;
    // Per player: moves whose search the tables answered somewhere, and games with any.
    let mut table_moves = [0usize; 2];
    let mut table_games = [0usize; 2];
    let tally = matches::run(&config, |game, tally| {
        games_seen += 1;
        for (k, &n) in game.table_moves.iter().enumerate() {
            table_moves[k] += n;
            table_games[k] += usize::from(n > 0);
        }
        if let Some(tb) = &tables {
            if let Some(material) = first_in_tables(tb, config.rules, &game.moves) {
                *reached.entry(material).or_default() += 1;
            }
        }
        if let Termination::Illegal { colour, what } = &game.termination {
            println!("game {}: illegal move by {colour}: {what}", game.index + 1);
        }
        if args.verbose || tally.games() % 10 == 0 {
            let ending = match &game.termination {
                Termination::Rules(status) => status.to_string(),
                Termination::Illegal { colour, .. } => format!("{colour} lost by an illegal move"),
                Termination::Adjudicated => "drawn by the ply limit".to_owned(),
            };
            println!(
                "game {} ({} plies, first player {}): {ending}; {tally}",
                game.index + 1,
                game.moves.len(),
                if game.first_is_white { "white" } else { "black" },
            );
        }
    })?;
    println!("final: {tally}");
    if let Some(tb) = &tables {
        let total: usize = reached.values().sum();
        println!(
            "games reaching the tables (up to {} stones): {total} of {games_seen}",
            tb.stones()
        );
        for (material, n) in &reached {
            println!("  first reached at {material}: {n}");
        }
        for (k, spec) in [&config.first, &config.second].into_iter().enumerate() {
            if spec.wants_tables() {
                println!(
                    "moves of {spec} whose search the tables answered somewhere: {} in {} games",
                    table_moves[k], table_games[k]
                );
            }
        }
    }
    println!("illegal moves: first {}, second {}", tally.first_illegal, tally.second_illegal);
    if let Some(sprt) = config.sprt {
        let (llr, lower, upper) = tally.llr(sprt);
        println!(
            "sprt elo0={} elo1={}: llr {llr:.2} ({lower:.2}, {upper:.2}) {}",
            sprt.elo0,
            sprt.elo1,
            tally.verdict(sprt)
        );
    }
    Ok(())
}
