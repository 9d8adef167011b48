//! Texel's method, shared by the fitting examples: a position's score
//! becomes an expected result through a logistic curve, and Adam moves the
//! weights to cut the squared error against what the game (or a deeper
//! search) gave the side to move.

/// One position as a fit sees it.
pub struct Sample {
    /// The terms whose weights are fitted.
    pub features: Vec<f64>,
    /// The terms the fit holds fixed, already weighted.
    pub offset: f64,
    /// A factor on the whole score (Yoté fades it towards the quiet-move
    /// draw), 0 to 1.
    pub fade: f64,
    /// What the game gave the side to move: 1, ½ or 0.
    pub result: f64,
}

pub fn sigmoid(x: f64) -> f64 {
    1.0 / (1.0 + (-x).exp())
}

fn eval(s: &Sample, w: &[f64]) -> f64 {
    (s.features.iter().zip(w).map(|(f, w)| f * w).sum::<f64>() + s.offset) * s.fade
}

/// The mean squared error of `w`'s predictions at scale `k`.
pub fn error(samples: &[Sample], w: &[f64], k: f64) -> f64 {
    let sum: f64 = samples
        .iter()
        .map(|s| (s.result - sigmoid(k * eval(s, w))).powi(2))
        .sum();
    sum / samples.len() as f64
}

/// The logistic scale that best fits `w` (a golden-section search: the
/// error is unimodal in it).
pub fn fit_scale(samples: &[Sample], w: &[f64]) -> f64 {
    let (mut lo, mut hi) = (1e-5, 0.1);
    let g = (5f64.sqrt() - 1.0) / 2.0;
    for _ in 0..50 {
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

/// Adam on the mean squared error for `steps` steps, moving only the
/// weights `free`; the error is printed every 200 steps.
pub fn fit_weights(
    samples: &[Sample],
    mut w: Vec<f64>,
    k: f64,
    free: &[usize],
    steps: i32,
) -> Vec<f64> {
    let (rate, b1, b2) = (0.5, 0.9, 0.999);
    let mut m = vec![0.0; w.len()];
    let mut v = vec![0.0; w.len()];
    for step in 1..=steps {
        let mut grad = vec![0.0; w.len()];
        for s in samples {
            let p = sigmoid(k * eval(s, &w));
            let d = -2.0 * (s.result - p) * p * (1.0 - p) * k * s.fade;
            for (g, f) in grad.iter_mut().zip(&s.features) {
                *g += d * f;
            }
        }
        for &i in free {
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

type Result<T> = std::result::Result<T, Box<dyn std::error::Error>>;

/// Reads every record line of `files` with `read`, into the positions to
/// fit and those held out: one pair of games in five (both games of a
/// pair share their opening), to tell a better fit from a fit to noise.
pub fn read_records<T>(
    files: &[String],
    mut read: impl FnMut(&str, &mut Vec<T>) -> Result<()>,
) -> Result<(Vec<T>, Vec<T>)> {
    use std::io::BufRead;
    let (mut fitted, mut held) = (Vec::new(), Vec::new());
    for file in files {
        let reader = std::io::BufReader::new(std::fs::File::open(file)?);
        for (i, line) in reader.lines().enumerate() {
            let out = if (i / 2) % 5 == 4 {
                &mut held
            } else {
                &mut fitted
            };
            read(&line?, out)?;
        }
    }
    Ok((fitted, held))
}

/// One game of an arena record file.
pub struct Game {
    /// The start position, as the record's protocol line gives it.
    pub fen: String,
    pub moves: Vec<String>,
    /// Random plies before the contestants moved.
    pub opening: usize,
    a_score: f64,
    a_first: bool,
}

impl Game {
    /// Reads a record line of `game` (`yote`, `nsolo`); records from
    /// before `--opening-plies` had the game's default, `default_opening`.
    pub fn parse(line: &str, game: &str, default_opening: usize) -> Result<Game> {
        let record: serde_json::Value = serde_json::from_str(line)?;
        let protocol = record["position"].as_str().ok_or("no position")?;
        let rest = protocol
            .strip_prefix(&format!("position {game} fen "))
            .ok_or_else(|| format!("not a {game} record"))?;
        let (fen, moves) = rest.split_once(" moves ").unwrap_or((rest, ""));
        Ok(Game {
            fen: fen.to_string(),
            moves: moves.split_whitespace().map(String::from).collect(),
            opening: record["opening_plies"]
                .as_u64()
                .map_or(default_opening, |n| n as usize),
            a_score: record["score"].as_f64().ok_or("no score")?,
            a_first: record["a_first"].as_bool().ok_or("no a_first")?,
        })
    }

    /// What the game gave the side to move at `ply`: 1, ½ or 0. A moved
    /// first after the random opening when `a_first`.
    pub fn result_at(&self, ply: usize) -> f64 {
        let first_to_move = (ply + self.opening).is_multiple_of(2);
        if first_to_move == self.a_first {
            self.a_score
        } else {
            1.0 - self.a_score
        }
    }
}
