fn main() {
    let d: u32 = std::env::args().nth(1).unwrap().parse().unwrap();
    let r = dara_engine::bench::run(d, |l| {
        println!(
            "{:<28} {:<50} {:>9} {} {}",
            l.rules,
            l.position,
            l.outcome.nodes,
            l.outcome.best.unwrap(),
            l.outcome.score
        )
    });
    println!("nodes {} time {:?} nps {}", r.nodes, r.time, r.nps());
}
