//! `palabre bench`: the AI crate's benchmark positions ([`bench`]) searched
//! to their fixed depths: the node checksum and nodes per second.

use std::time::Duration;

use palabre_ai::Params;
use palabre_ai::bench;

fn line(name: &str, nodes: u64, time: Duration) {
    let nps = nodes as f64 / time.as_secs_f64().max(1e-9);
    println!(
        "{name:<12} nodes {nodes:>10} time {:>8.1} ms nps {nps:>10.0}",
        time.as_secs_f64() * 1e3
    );
}

pub fn run(params: Params) -> anyhow::Result<()> {
    let mut total = (0u64, Duration::ZERO);
    for game_name in ["yote", "nsolo"] {
        let mut sub = (0u64, Duration::ZERO);
        for (_, fen, depth) in bench::positions().filter(|p| p.0 == game_name) {
            let count =
                bench::run_one(game_name, fen, depth, &params).map_err(anyhow::Error::msg)?;
            sub = (sub.0 + count.nodes, sub.1 + count.time);
        }
        line(game_name, sub.0, sub.1);
        total = (total.0 + sub.0, total.1 + sub.1);
    }
    line("total", total.0, total.1);
    println!(
        "{} nodes {:.0} nps",
        total.0,
        total.0 as f64 / total.1.as_secs_f64().max(1e-9)
    );
    Ok(())
}
