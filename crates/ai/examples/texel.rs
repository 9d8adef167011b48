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

use palabre_ai::Params;
use palabre_ai::yote::eval::{FEATURES, Features, NAMES, features, fixed_terms, weights};
use palabre_rules::yote::{Move, Position, QUIET_LIMIT};

mod fit;
use fit::{Game, Sample, error, fit_scale, fit_weights, read_records};

/// Plies left out after the random opening, whose positions are drawn at
/// random rather than played.
const SKIP_PLIES: usize = 2;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let files: Vec<String> = std::env::args().skip(1).collect();
    if files.is_empty() {
        return Err("usage: texel RECORDS.jsonl [...]".into());
    }
    let params = Params::default();
    let (samples, held) = read_records(&files, |line, out| read_game(line, &params, out))?;
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
    // The ball's weight (index 0) is held: it sets the scale.
    let free: Vec<usize> = (1..FEATURES).collect();
    let fitted = fit_weights(&samples, start, k, &free, 2000);
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
    let game = Game::parse(line, "yote", 2)?;
    let mut pos: Position = game.fen.parse()?;
    for (ply, text) in game.moves.iter().enumerate() {
        if ply >= game.opening + SKIP_PLIES && pos.jumps_for(pos.turn()) == 0 {
            out.push(sample(&pos, params, game.result_at(ply)));
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
        features: f.map(f64::from).to_vec(),
        offset: f64::from(fixed_terms(pos, params)),
        fade,
        result,
    }
}
