//! `dara bench search`: the search benchmark, whose total node count is the search's signature.

/// Search fixed positions to a fixed depth; print the total nodes (a signature) and nodes/s.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// Depth of every search.
    #[arg(long, default_value_t = dara_engine::bench::DEFAULT_DEPTH)]
    depth: u32,
}

pub fn run(args: Args) -> anyhow::Result<()> {
    let report = dara_engine::bench::run(args.depth, |line| {
        let o = &line.outcome;
        let best = o.best.map_or_else(|| "none".to_owned(), |m| m.to_string());
        println!(
            "{:<26} {:<48} {:>10} nodes  {:<12} {}",
            line.rules, line.position, o.nodes, best, o.score
        );
    });
    println!("{} nodes {} nps", report.nodes, report.nps());
    Ok(())
}
