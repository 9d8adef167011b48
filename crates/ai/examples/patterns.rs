//! Fits Yoté's placement patterns (`yote::patterns`) to game results, on
//! top of the evaluation without them: each quiet position of the
//! placement (a side still places, the mover has no jump) in the games of
//! `palabre arena --records` files, under the board's eight symmetries,
//! predicts σ(k·(eval + Σ weights)), and Adam moves the weights to cut the
//! squared error against what the game gave the side to move. `k` is the
//! logistic scale that best fits the evaluation alone, so the weights come
//! out in hundredths of a ball.
//!
//! ```sh
//! palabre arena yote --a expert --b expert --nodes 20000 --b-nodes 25000 \
//!   --opening-plies 4 --games 10000 --jobs 2 --seed 101 --records selfplay.jsonl
//! cargo run --release -p palabre-ai --example patterns -- \
//!   crates/ai/src/yote/patterns.bin 150 1e-8 selfplay.jsonl
//! ```
//!
//! The arguments are the weights file to write, Adam's steps, the L2
//! penalty on each weight, and the record files. It prints the error on
//! the positions fitted and on a fifth of the games held out.

use palabre_ai::Params;
use palabre_ai::yote::eval::evaluate;
use palabre_ai::yote::patterns::{self, ACTIVE, BUCKETS, PER_BUCKET, WEIGHTS};
use palabre_rules::yote::{Move, Position};

// Shared with the Texel examples; their dense fit is too slow for 14,908
// weights read 27 at a time, so this one has a sparse loop of its own.
#[allow(dead_code)]
mod fit;
use fit::{Game, Sample, fit_scale, read_records, sigmoid};

/// A placement position as the fit needs it.
struct Placement {
    eval: f64,
    mine: u32,
    theirs: u32,
    bucket: usize,
    result: f64,
}

/// Every position under the eight symmetries: the weights each reads, and
/// its evaluation and result.
struct Expanded {
    indices: Vec<[u32; ACTIVE]>,
    labels: Vec<(f64, f64)>,
}

type Result<T> = std::result::Result<T, Box<dyn std::error::Error>>;

fn main() -> Result<()> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let [out, steps, l2, files @ ..] = args.as_slice() else {
        return Err("usage: patterns OUT.bin STEPS L2 RECORDS.jsonl [...]".into());
    };
    let params = Params {
        yote_patterns: 0,
        ..Params::default()
    };
    let (train, held) = read_records(files, |line, out| read_game(line, &params, out))?;
    eprintln!(
        "{} placement positions, {} held out",
        train.len(),
        held.len()
    );
    let k = scale(&train);
    let (train, held) = (expand(&train), expand(&held));
    let mut w = vec![0.0; WEIGHTS];
    let report = |w: &[f64], step: usize| {
        eprintln!(
            "step {step}: error {:.6}, held out {:.6}",
            error(&train, w, k),
            error(&held, w, k)
        );
    };
    report(&w, 0);
    let (steps, l2): (usize, f64) = (steps.parse()?, l2.parse()?);
    let mut adam = Adam::new();
    for step in 1..=steps {
        let grad = gradient(&train, &w, k, l2);
        adam.step(&mut w, &grad);
        if step % 25 == 0 {
            report(&w, step);
        }
    }
    for b in 0..BUCKETS {
        eprintln!(
            "phase {b}: constant {:.0}",
            w[b * PER_BUCKET + PER_BUCKET - 1]
        );
    }
    let bytes: Vec<u8> = w
        .iter()
        .flat_map(|x| (x.round().clamp(-30_000.0, 30_000.0) as i16).to_le_bytes())
        .collect();
    std::fs::write(out, bytes)?;
    Ok(())
}

/// The logistic scale that best fits the evaluation alone.
fn scale(positions: &[Placement]) -> f64 {
    let samples: Vec<Sample> = positions
        .iter()
        .map(|p| Sample {
            features: vec![],
            offset: p.eval,
            fade: 1.0,
            result: p.result,
        })
        .collect();
    fit_scale(&samples, &[])
}

fn expand(positions: &[Placement]) -> Expanded {
    let mut all = Expanded {
        indices: Vec::with_capacity(positions.len() * 8),
        labels: Vec::with_capacity(positions.len() * 8),
    };
    for p in positions {
        for sym in 0..8 {
            let (m, t) = (
                patterns::symmetric(p.mine, sym),
                patterns::symmetric(p.theirs, sym),
            );
            all.indices.push(patterns::indices(m, t, p.bucket));
            all.labels.push((p.eval, p.result));
        }
    }
    all
}

fn predict(indices: &[u32; ACTIVE], eval: f64, w: &[f64], k: f64) -> f64 {
    sigmoid(k * (eval + indices.iter().map(|&i| w[i as usize]).sum::<f64>()))
}

fn error(set: &Expanded, w: &[f64], k: f64) -> f64 {
    let sum: f64 = set
        .indices
        .iter()
        .zip(&set.labels)
        .map(|(ix, &(eval, result))| (result - predict(ix, eval, w, k)).powi(2))
        .sum();
    sum / set.labels.len() as f64
}

/// The mean squared error's gradient, with the L2 penalty.
fn gradient(set: &Expanded, w: &[f64], k: f64, l2: f64) -> Vec<f64> {
    let mut grad = vec![0.0; WEIGHTS];
    for (ix, &(eval, result)) in set.indices.iter().zip(&set.labels) {
        let p = predict(ix, eval, w, k);
        let d = -2.0 * (result - p) * p * (1.0 - p) * k;
        for &i in ix {
            grad[i as usize] += d;
        }
    }
    // Per position, not per symmetric copy: the eight copies are one game.
    let n = set.labels.len() as f64 / 8.0;
    grad.iter_mut()
        .zip(w)
        .for_each(|(g, w)| *g = *g / n + 2.0 * l2 * w);
    grad
}

/// Adam, with a step of 4 hundredths of a ball.
struct Adam {
    m: Vec<f64>,
    v: Vec<f64>,
    t: i32,
}

impl Adam {
    fn new() -> Adam {
        Adam {
            m: vec![0.0; WEIGHTS],
            v: vec![0.0; WEIGHTS],
            t: 0,
        }
    }

    fn step(&mut self, w: &mut [f64], grad: &[f64]) {
        let (rate, b1, b2) = (4.0, 0.9, 0.999);
        self.t += 1;
        for i in 0..w.len() {
            self.m[i] = b1 * self.m[i] + (1.0 - b1) * grad[i];
            self.v[i] = b2 * self.v[i] + (1.0 - b2) * grad[i] * grad[i];
            let m = self.m[i] / (1.0 - b1.powi(self.t));
            let v = self.v[i] / (1.0 - b2.powi(self.t));
            w[i] -= rate * m / (v.sqrt() + 1e-12);
        }
    }
}

/// Adds the quiet placement positions of one record line.
fn read_game(line: &str, params: &Params, out: &mut Vec<Placement>) -> Result<()> {
    let game = Game::parse(line, "yote", 2)?;
    let mut pos: Position = game.fen.parse()?;
    for (ply, text) in game.moves.iter().enumerate() {
        let (me, them) = (pos.turn(), pos.turn().other());
        let quiet = ply >= game.opening && pos.jumps_for(me) == 0;
        if let Some(bucket) = patterns::phase(&pos).filter(|_| quiet) {
            out.push(Placement {
                eval: f64::from(evaluate(&pos, params)),
                mine: pos.balls(me),
                theirs: pos.balls(them),
                bucket,
                result: game.result_at(ply),
            });
        }
        let m: Move = text.parse()?;
        pos.play(&m)?;
    }
    Ok(())
}
