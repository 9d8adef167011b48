//! Fits candidate Nsolo evaluation terms (Texel's method) to the games of
//! `palabre arena nsolo --records` files, and prints how well each set of
//! terms predicts the result: the experiment behind docs/strength.md, "A
//! fitted Nsolo evaluation, dropped". The evaluation itself is not
//! changed: what a fit predicts better must still win in the arena.
//!
//! ```sh
//! cargo run --release -p palabre-ai --example nsolo_texel -- [--quiet] \
//!     [--search-depth D [--stride N]] records.jsonl [...]
//! ```
//!
//! `--quiet` keeps only positions where the side to move has no capture;
//! `--search-depth D` fits to a depth-D search's score of every Nth
//! position instead of the game's result.

use palabre_ai::Params;
use palabre_ai::bench::search_to_depth;
use palabre_ai::nsolo::Nsolo;
use palabre_rules::nsolo::{Move, Position, Side, facing, start_stones};

mod fit;
use fit::{Game, Sample, error, fit_scale, fit_weights, read_records, sigmoid};

/// Plies left out at the start of a game besides its random opening.
const SKIP_PLIES: usize = 2;
const FEATURES: usize = 12;
/// Terms 0 to 7 are the side to move's count less the other side's.
const NAMES: [&str; FEATURES] = [
    "stones",
    "inner_stones",
    "pits_1",
    "pits_2",
    "pits_3",
    "pits_4_5",
    "pits_6_9",
    "pits_10",
    "targets_to_move",
    "targets_waiting",
    "lead_x_gone",
    "tempo",
];
/// The logistic scale of a score in stone hundredths, near what the
/// result fit finds.
const SCALE: f64 = 0.002;

/// Stones, inner-row stones, and pits holding 1, 2, 3, 4-5, 6-9, 10+.
fn side_terms(pos: &Position, side: Side) -> [f64; 8] {
    let cells = pos.circuit(side);
    let half = cells.len() / 2;
    let mut t = [0.0; 8];
    for (i, &c) in cells.iter().enumerate() {
        t[0] += f64::from(c);
        if i >= half {
            t[1] += f64::from(c);
        }
        let bucket = match c {
            0 => continue,
            1 => 2,
            2 => 3,
            3 => 4,
            4..=5 => 5,
            6..=9 => 6,
            _ => 7,
        };
        t[bucket] += 1.0;
    }
    t
}

/// Stones `side` could take at the front: over its empty inner pits, the
/// facing pit's count.
fn targets(pos: &Position, side: Side) -> f64 {
    let mine = pos.circuit(side);
    let theirs = pos.circuit(side.other());
    (0..mine.len())
        .filter(|&i| mine[i] == 0)
        .filter_map(|i| facing(pos.size(), i))
        .map(|f| f64::from(theirs[f]))
        .sum()
}

fn features(pos: &Position, start_total: f64) -> [f64; FEATURES] {
    let me = pos.turn();
    let a = side_terms(pos, me);
    let b = side_terms(pos, me.other());
    let mut f = [0.0; FEATURES];
    for (x, (a, b)) in f.iter_mut().zip(a.iter().zip(&b)) {
        *x = a - b;
    }
    f[8] = targets(pos, me);
    f[9] = targets(pos, me.other());
    f[10] = (a[0] - b[0]) * (start_total - a[0] - b[0]) / start_total;
    f[11] = 1.0;
    f
}

/// Adds the positions of one record line, each with its sample.
fn read_game(
    line: &str,
    quiet_only: bool,
    out: &mut Vec<(Position, Sample)>,
) -> Result<(), Box<dyn std::error::Error>> {
    let game = Game::parse(line, "nsolo", 1)?;
    let mut pos: Position = game.fen.parse()?;
    let start_total = f64::from(2 * start_stones(pos.size()));
    for (ply, text) in game.moves.iter().enumerate() {
        let quiet = pos.sowing_ends().all(|(_, s)| s.captured == 0);
        if ply >= game.opening + SKIP_PLIES && (quiet || !quiet_only) {
            let sample = Sample {
                features: features(&pos, start_total).to_vec(),
                offset: 0.0,
                fade: 1.0,
                result: game.result_at(ply),
            };
            out.push((pos.clone(), sample));
        }
        pos.play(&text.parse::<Move>()?)?;
    }
    Ok(())
}

/// Today's Expert's score of `pos` at `depth`, clipped short of a win.
fn search_score(pos: &Position, depth: u32) -> i32 {
    // The table the fits of docs/strength.md were labelled with.
    let params = Params {
        tt_bits: 16,
        ..Params::default()
    };
    let game = Nsolo::new(params.clone());
    search_to_depth(&game, pos, depth, &params)
        .score
        .clamp(-2000, 2000)
}

/// Today's evaluation in these terms: a stone 100, an inner stone -3, a
/// pit of two or more 6.
fn todays_weights() -> Vec<f64> {
    let mut w = vec![0.0; FEATURES];
    w[0] = 100.0;
    w[1] = -3.0;
    for pit in &mut w[3..8] {
        *pit = 6.0;
    }
    w
}

struct Options {
    quiet: bool,
    search_depth: Option<u32>,
    stride: usize,
    files: Vec<String>,
}

fn options() -> Result<Options, Box<dyn std::error::Error>> {
    let mut o = Options {
        quiet: false,
        search_depth: None,
        stride: 1,
        files: Vec::new(),
    };
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "--quiet" => o.quiet = true,
            "--search-depth" => o.search_depth = Some(args.next().ok_or("a depth")?.parse()?),
            "--stride" => o.stride = args.next().ok_or("a stride")?.parse()?,
            _ => o.files.push(arg),
        }
    }
    if o.files.is_empty() || o.stride == 0 {
        return Err(
            "usage: nsolo_texel [--quiet] [--search-depth D [--stride N]] RECORDS...".into(),
        );
    }
    Ok(o)
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let o = options()?;
    let (mut samples, mut held) =
        read_records(&o.files, |line, out| read_game(line, o.quiet, out))?;
    if let Some(depth) = o.search_depth {
        samples = samples.into_iter().step_by(o.stride).collect();
        held = held.into_iter().step_by(o.stride).collect();
        for (pos, s) in samples.iter_mut().chain(held.iter_mut()) {
            s.result = sigmoid(SCALE * f64::from(search_score(pos, depth)));
        }
    }
    let samples: Vec<Sample> = samples.into_iter().map(|(_, s)| s).collect();
    let held: Vec<Sample> = held.into_iter().map(|(_, s)| s).collect();
    eprintln!("{} positions, {} held out", samples.len(), held.len());
    let today = todays_weights();
    let k = fit_scale(&samples, &today);
    let mut stones = vec![0.0; FEATURES];
    stones[0] = 100.0;
    for (name, w) in [("today's", &today), ("stones only", &stones)] {
        eprintln!(
            "{name}: error {:.6}, held out {:.6}",
            error(&samples, w, k),
            error(&held, w, k)
        );
    }
    let sets: [(&str, Vec<usize>); 5] = [
        ("inner stones", vec![1]),
        ("pits by count and inner stones", (1..8).collect()),
        ("the same and targets", (1..10).collect()),
        ("the same and the lead", vec![1, 2, 3, 4, 5, 6, 7, 10]),
        ("all", (1..FEATURES).collect()),
    ];
    for (name, free) in sets {
        let start: Vec<f64> = (0..FEATURES)
            .map(|i| if i == 0 { 100.0 } else { 0.0 })
            .collect();
        let fitted = fit_weights(&samples, start, k, &free, 1500);
        let weights: Vec<String> = free
            .iter()
            .map(|&i| format!("{}={:.0}", NAMES[i], fitted[i]))
            .collect();
        eprintln!(
            "{name}: error {:.6}, held out {:.6}: {}",
            error(&samples, &fitted, k),
            error(&held, &fitted, k),
            weights.join(" ")
        );
    }
    Ok(())
}
