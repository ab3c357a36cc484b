//! `dara tablebase`: build the movement-phase tables, and look positions up in them.

use std::path::PathBuf;
use std::sync::Mutex;
use std::time::Instant;

use anyhow::{bail, Context, Result};
use dara::{Position, Ruleset};
use dara_tablebase::{BuildReport, Progress, Stage, Table, Tablebase};
use indicatif::{MultiProgress, ProgressBar, ProgressStyle};

/// Perfect endgames: tables of every movement position with few stones.
#[derive(Debug, clap::Args)]
pub struct Args {
    #[command(subcommand)]
    command: Command,
}

#[derive(Debug, clap::Subcommand)]
enum Command {
    Build(BuildArgs),
    Probe(ProbeArgs),
}

/// Solve every movement position with at most STONES stones, smallest materials first, and
/// write one file per material into DIR (materials already there are loaded, not rebuilt).
#[derive(Debug, clap::Args)]
struct BuildArgs {
    /// The ruleset: arcade or wikipedia (board size and quiet limit may be overridden).
    #[arg(long, default_value = "arcade")]
    rules: String,
    /// The most stones on the board, both sides together.
    #[arg(long)]
    stones: u8,
    /// Where the table files go.
    #[arg(long)]
    dir: PathBuf,
    /// Threads (default: every core).
    #[arg(long)]
    threads: Option<usize>,
}

/// Print `wdl win|draw|loss` and `dtc N`, then each legal move with its value, best first.
#[derive(Debug, clap::Args)]
struct ProbeArgs {
    /// The ruleset the position is played under.
    #[arg(long, default_value = "arcade")]
    rules: String,
    /// The position, in five fields (a movement position: both hands empty).
    #[arg(long)]
    position: String,
    /// Where the table files are.
    #[arg(long)]
    dir: PathBuf,
}

pub fn run(args: Args) -> Result<()> {
    match args.command {
        Command::Build(args) => build(args),
        Command::Probe(args) => probe(args),
    }
}

/// One bar for all positions of the forward passes (they cost most: the time left comes from
/// it), and one for the stage under way.
struct Bars {
    total: ProgressBar,
    stage: ProgressBar,
    /// The forward pass is under way: its positions count towards the total bar.
    counting: Mutex<bool>,
}

impl Progress for Bars {
    fn stage(&self, stage: Stage, work: u64) {
        let counting = matches!(stage, Stage::Captures(_));
        *self.counting.lock().expect("no panic holds the lock") = counting;
        self.stage.reset();
        self.stage.set_length(work);
        self.stage.set_message(match stage {
            Stage::Captures(m) => format!("{m}: moves and captures"),
            Stage::Level(m, h) => format!("{m}: distance {h}"),
        });
    }

    fn advance(&self, done: u64) {
        self.stage.inc(done);
        if *self.counting.lock().expect("no panic holds the lock") {
            self.total.inc(done);
        }
    }
}

fn build(args: BuildArgs) -> Result<()> {
    let rules: Ruleset = args.rules.parse().context("--rules")?;
    let mut tb = Tablebase::new(rules)?;
    std::fs::create_dir_all(&args.dir)
        .with_context(|| format!("cannot create {}", args.dir.display()))?;
    let loaded = tb.load_dir(&args.dir, args.stones)?;
    let threads = args.threads.unwrap_or_else(|| {
        std::thread::available_parallelism().map(std::num::NonZeroUsize::get).unwrap_or(1)
    });
    let lose_at = rules.lose_at();
    let to_build: Vec<_> = dara_tablebase::Material::up_to(args.stones, lose_at)
        .into_iter()
        .filter(|m| tb.table(*m).is_none())
        .collect();
    let board = tb.rules().board().clone();
    let work: u64 =
        to_build.iter().map(|&m| dara_tablebase::MaterialIndex::new(&board, m).full_len()).sum();
    eprintln!(
        "{} tables loaded from {}; building {} materials ({work} positions) with {threads} threads",
        loaded,
        args.dir.display(),
        to_build.len()
    );
    let multi = MultiProgress::new();
    let total = multi.add(ProgressBar::new(work));
    total.set_style(
        ProgressStyle::with_template(
            "all   [{elapsed_precise}] {wide_bar} {percent:>3}% {human_pos}/{human_len} positions, about {eta} left",
        )
        .expect("a valid template"),
    );
    let stage = multi.add(ProgressBar::new(0));
    stage.set_style(
        ProgressStyle::with_template("stage {wide_bar} {percent:>3}% {msg}")
            .expect("a valid template"),
    );
    let bars = Bars { total, stage, counting: Mutex::new(false) };
    let started = Instant::now();
    let mut failure = None;
    let mut reports = Vec::new();
    let dir = args.dir.clone();
    let table_rules = tb.rules().clone();
    tb.build(args.stones, threads, &bars, |table: &Table, report: &BuildReport| {
        match dara_tablebase::file::save(&dir, &table_rules, table) {
            Ok(bytes) => reports.push((report.clone(), bytes)),
            Err(e) => failure = Some(e),
        }
        let line = report_line(report, reports.last().map_or(0, |r| r.1));
        // Above the bars on a terminal; into a log as it is, where the bars draw nothing (and
        // would swallow the line too): a long build run from a script shows its progress.
        if multi.is_hidden() {
            eprintln!("{line}");
        } else {
            let _ = multi.println(line);
        }
    });
    bars.total.finish_and_clear();
    bars.stage.finish_and_clear();
    if let Some(e) = failure {
        bail!(e);
    }
    println!("material positions stored wins draws losses longest-dtc bytes seconds");
    for (r, bytes) in &reports {
        println!("{}", report_line(r, *bytes));
    }
    println!("built {} tables in {:.1} s", reports.len(), started.elapsed().as_secs_f64());
    Ok(())
}

fn report_line(r: &BuildReport, bytes: u64) -> String {
    let [losses, draws, wins] = r.counts;
    format!(
        "{} {} {} {wins} {draws} {losses} {} {bytes} {:.1}",
        r.material,
        r.positions,
        r.stored,
        r.longest_dtc,
        r.time.as_secs_f64()
    )
}

fn probe(args: ProbeArgs) -> Result<()> {
    let rules: Ruleset = args.rules.parse().context("--rules")?;
    let pos = Position::from_text(&args.position, rules).context("--position")?;
    let tb = load(rules, &args.dir)?;
    let value = tb.probe(&pos)?;
    println!("{value}");
    let limit = tb.rules().limit();
    if value.is_cursed_win(limit) {
        println!("cursed win: no win within the {}-ply quiet limit", limit.unwrap_or(0));
    } else if value.is_blessed_loss(limit) {
        println!("blessed loss: the {}-ply quiet limit saves it", limit.unwrap_or(0));
    }
    println!("outcome {}", outcome_text(tb.probe_outcome(&pos)?));
    for m in tb.rank_moves(&pos)? {
        println!("{} {} dtc {} ({})", m.mv, m.value.wdl, m.value.dtc, outcome_text(m.outcome));
    }
    Ok(())
}

/// Every table of `rules` found in `dir`.
pub fn load(rules: Ruleset, dir: &std::path::Path) -> Result<Tablebase> {
    let mut tb = Tablebase::new(rules)?;
    let loaded = tb.load_dir(dir, rules.cells())?;
    if loaded == 0 {
        bail!("no tablebase files for {} in {}", tb.rules().table_name(), dir.display());
    }
    Ok(tb)
}

/// The result under the quiet-plies limit, in words: "win in N plies" (to the next capture),
/// "drawn", "loss in N plies".
pub fn outcome_text(outcome: dara_tablebase::Outcome) -> String {
    match outcome {
        dara_tablebase::Outcome::Win(d) => format!("win in {d} plies"),
        dara_tablebase::Outcome::Draw => "drawn".to_string(),
        dara_tablebase::Outcome::Loss(d) => format!("loss in {d} plies"),
    }
}
