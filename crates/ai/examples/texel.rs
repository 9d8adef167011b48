//! Fits the Yoté evaluation's weights to game results (Texel's method):
//! every quiet position of the games in `palabre arena --records` files is
//! scored by the evaluation, the score becomes an expected result through a
//! logistic curve, and the weights move to cut the squared error against
//! what the game's end gave the side to move.
//!
//! ```sh
//! cargo run --release -p palabre-ai --example texel -- records.jsonl [...]
//! ```
//!
//! It prints the fitted weights as `--set NAME=VALUE` arguments for
//! `palabre engine`, so the arena can judge them before they become the
//! defaults. The ball's weight stays at its value: it sets the scale.

use std::io::BufRead;

use palabre_ai::Params;
use palabre_ai::yote::eval::{FEATURES, Features, NAMES, features, fixed_terms, weights};
use palabre_rules::yote::{Move, Position, QUIET_LIMIT};

/// Opening plies left out: they are drawn at random to level the game.
const SKIP_PLIES: usize = 4;

struct Sample {
    features: [f64; FEATURES],
    /// The terms this fit holds fixed (`fixed_terms`: the crowded board's
    /// safe steps, the lead weighed by the balls gone).
    offset: f64,
    /// The evaluation's fade towards the quiet-move draw, 0 to 1.
    fade: f64,
    /// What the game gave the side to move: 1, ½ or 0.
    result: f64,
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let files: Vec<String> = std::env::args().skip(1).collect();
    if files.is_empty() {
        return Err("usage: texel RECORDS.jsonl [...]".into());
    }
    let params = Params::default();
    // One game pair in five (both games of a pair share their opening) is
    // held out, to tell a better fit from a fit to noise.
    let (mut samples, mut held) = (Vec::new(), Vec::new());
    for file in &files {
        let reader = std::io::BufReader::new(std::fs::File::open(file)?);
        for (i, line) in reader.lines().enumerate() {
            let out = if (i / 2) % 5 == 4 {
                &mut held
            } else {
                &mut samples
            };
            read_game(&line?, &params, out)?;
        }
    }
    eprintln!(
        "{} quiet positions to fit, {} held out, from {} files",
        samples.len(),
        held.len(),
        files.len()
    );
    let start: Vec<f64> = weights(&params).iter().map(|&w| f64::from(w)).collect();
    let k = fit_scale(&samples, &start);
    eprintln!(
        "scale k = {k:.5}; error {:.6}, held out {:.6}",
        error(&samples, &start, k),
        error(&held, &start, k)
    );
    let fitted = fit_weights(&samples, start, k);
    eprintln!(
        "fitted: error {:.6}, held out {:.6}",
        error(&samples, &fitted, k),
        error(&held, &fitted, k)
    );
    let args: Vec<String> = NAMES
        .iter()
        .zip(&fitted)
        .map(|(name, w)| format!("--set {name}={}", w.round() as i32))
        .collect();
    println!("{}", args.join(" "));
    Ok(())
}

/// Adds the quiet positions of one record line.
fn read_game(
    line: &str,
    params: &Params,
    out: &mut Vec<Sample>,
) -> Result<(), Box<dyn std::error::Error>> {
    let record: serde_json::Value = serde_json::from_str(line)?;
    let protocol = record["position"].as_str().ok_or("no position")?;
    let a_score = record["score"].as_f64().ok_or("no score")?;
    let a_first = record["a_first"].as_bool().ok_or("no a_first")?;
    let rest = protocol
        .strip_prefix("position yote fen ")
        .ok_or("not a Yoté record")?;
    let (fen, moves) = rest.split_once(" moves ").unwrap_or((rest, ""));
    let mut pos: Position = fen.parse()?;
    let first = pos.turn();
    for (ply, text) in moves.split_whitespace().enumerate() {
        if ply >= SKIP_PLIES && pos.jumps_for(pos.turn()) == 0 {
            let a_to_move = (pos.turn() == first) == a_first;
            let result = if a_to_move { a_score } else { 1.0 - a_score };
            out.push(sample(&pos, params, result));
        }
        let m: Move = text.parse()?;
        pos.play(&m)?;
    }
    Ok(())
}

fn sample(pos: &Position, params: &Params, result: f64) -> Sample {
    let f: Features = features(pos);
    let left = f64::from(QUIET_LIMIT - pos.quiet());
    let fade = left.min(f64::from(params.yote_quiet_fade)) / f64::from(params.yote_quiet_fade);
    Sample {
        features: f.map(f64::from),
        offset: f64::from(fixed_terms(pos, params)),
        fade,
        result,
    }
}

fn sigmoid(x: f64) -> f64 {
    1.0 / (1.0 + (-x).exp())
}

fn eval(s: &Sample, w: &[f64]) -> f64 {
    (s.features.iter().zip(w).map(|(f, w)| f * w).sum::<f64>() + s.offset) * s.fade
}

fn error(samples: &[Sample], w: &[f64], k: f64) -> f64 {
    let sum: f64 = samples
        .iter()
        .map(|s| (s.result - sigmoid(k * eval(s, w))).powi(2))
        .sum();
    sum / samples.len() as f64
}

/// The logistic scale that best fits today's weights (a golden-section
/// search: the error is unimodal in it).
fn fit_scale(samples: &[Sample], w: &[f64]) -> f64 {
    let (mut lo, mut hi) = (1e-4, 0.1);
    let g = (5f64.sqrt() - 1.0) / 2.0;
    for _ in 0..40 {
        let a = hi - g * (hi - lo);
        let b = lo + g * (hi - lo);
        if error(samples, w, a) < error(samples, w, b) {
            hi = b;
        } else {
            lo = a;
        }
    }
    (lo + hi) / 2.0
}

/// Adam on the mean squared error; the ball's weight (index 0) is held.
fn fit_weights(samples: &[Sample], mut w: Vec<f64>, k: f64) -> Vec<f64> {
    let (rate, b1, b2) = (0.5, 0.9, 0.999);
    let mut m = [0.0; FEATURES];
    let mut v = [0.0; FEATURES];
    for step in 1..=2000 {
        let mut grad = [0.0; FEATURES];
        for s in samples {
            let p = sigmoid(k * eval(s, &w));
            let d = -2.0 * (s.result - p) * p * (1.0 - p) * k * s.fade;
            for (g, f) in grad.iter_mut().zip(&s.features) {
                *g += d * f;
            }
        }
        for i in 1..FEATURES {
            let g = grad[i] / samples.len() as f64;
            m[i] = b1 * m[i] + (1.0 - b1) * g;
            v[i] = b2 * v[i] + (1.0 - b2) * g * g;
            let mh = m[i] / (1.0 - b1.powi(step));
            let vh = v[i] / (1.0 - b2.powi(step));
            w[i] -= rate * mh / (vh.sqrt() + 1e-12);
        }
        if step % 200 == 0 {
            eprintln!("step {step}: error {:.6}", error(samples, &w, k));
        }
    }
    w
}
