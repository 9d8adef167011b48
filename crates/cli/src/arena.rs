//! `palabre arena`: matches between two contestants, sides alternating and
//! level random openings varied by seed; prints the result, an Elo
//! difference with its 95% margin and each side's move times.

use std::io::Write;
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use anyhow::Context;
use palabre_ai::player::{AnyPosition, think};
use palabre_ai::tt::Table;
use palabre_ai::{Level, Limits, Params, Request, SearchLimit};
use palabre_rules::{GamePosition, Outcome, Record, nsolo, yote};
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};

use crate::contestant::{Contestant, Gone, Spec, Turn};
use crate::start::Game;

/// Games longer than this are adjudicated drawn.
const MAX_PLIES: usize = 3000;

#[derive(Debug, Clone)]
pub struct Settings {
    pub game: Game,
    pub a: Spec,
    pub b: Spec,
    pub games: usize,
    pub size: u8,
    /// A's time a move.
    pub movetime: Option<Duration>,
    /// B's time a move.
    pub b_movetime: Option<Duration>,
    /// A's node budget a move: with a budget and no time, a contestant's
    /// moves do not depend on the machine's speed or load, so a match can
    /// be played again exactly and two versions compared game by game.
    pub nodes: Option<u64>,
    /// B's node budget a move.
    pub b_nodes: Option<u64>,
    /// A's game clock: a side whose clock runs out loses on time.
    pub clock: Option<GameClock>,
    /// B's game clock.
    pub b_clock: Option<GameClock>,
    /// Whether A and B think on the other's time (Expert or engines):
    /// within the other's node budget if it has one, otherwise until their
    /// turn.
    pub ponder: [bool; 2],
    pub seed: u64,
    pub jobs: usize,
    /// Yoté endgame tables for the Expert contestants.
    pub tables: Option<std::path::PathBuf>,
    /// Where to write one JSON line a game (its moves and result), to study
    /// the losses afterwards.
    pub records: Option<std::path::PathBuf>,
    /// Random plies before the contestants move (by default
    /// [`default_opening_plies`]).
    pub opening_plies: usize,
}

const MOST_ON_A_CLOCK: Duration = Duration::from_secs(24 * 3600);

/// A game clock: the time each side starts with and the increment added
/// after each of its moves, written `MS` or `MS+MS` (`60000+500`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct GameClock {
    pub start: Duration,
    pub increment: Duration,
}

impl std::str::FromStr for GameClock {
    type Err = String;

    fn from_str(s: &str) -> Result<GameClock, String> {
        let ms = |t: &str| {
            t.parse::<u64>()
                .map(Duration::from_millis)
                .map_err(|_| format!("bad clock {s:?}: MS or MS+MS"))
        };
        let (start, increment) = match s.split_once('+') {
            Some((start, inc)) => (ms(start)?, ms(inc)?),
            None => (ms(s)?, Duration::ZERO),
        };
        if start.is_zero() {
            return Err(format!("bad clock {s:?}: no time to start with"));
        }
        // A day bounds any match worth playing, and keeps every sum of
        // clock and increments far from overflowing.
        if start.max(increment) > MOST_ON_A_CLOCK {
            return Err(format!("bad clock {s:?}: at most a day"));
        }
        Ok(GameClock { start, increment })
    }
}

impl GameClock {
    /// The clock after a move that took `spent` with `left` on it: `None`
    /// when the time ran out before the move was made.
    fn after(self, left: Duration, spent: Duration) -> Option<Duration> {
        left.checked_sub(spent)
            .filter(|l| !l.is_zero())
            .map(|l| l + self.increment)
    }
}

/// One finished game, from A's side.
#[derive(Debug, Default)]
struct Tally {
    wins: usize,
    draws: usize,
    losses: usize,
    results: Vec<f64>,
    times: [Vec<Duration>; 2],
    reasons: std::collections::BTreeMap<String, usize>,
}

/// The rules-side view the match loop needs of each game.
trait Arena: GamePosition + Sync {
    fn any(&self) -> AnyPosition;
    fn protocol(start: &Self, moves: &[Self::Move]) -> String;
    fn random_move(&self, rng: &mut SmallRng) -> Option<Self::Move>;
}

fn protocol_line<P: GamePosition>(start: &P, moves: &[P::Move]) -> String {
    let mut line = format!("position {} fen {start}", P::NAME);
    if !moves.is_empty() {
        line.push_str(" moves");
        for m in moves {
            line.push(' ');
            line.push_str(&m.to_string());
        }
    }
    line
}

impl Arena for yote::Position {
    fn any(&self) -> AnyPosition {
        AnyPosition::Yote(*self)
    }
    fn protocol(start: &Self, moves: &[yote::Move]) -> String {
        protocol_line(start, moves)
    }
    fn random_move(&self, rng: &mut SmallRng) -> Option<yote::Move> {
        let moves = self.legal_moves();
        (!moves.is_empty()).then(|| moves[rng.gen_range(0..moves.len())])
    }
}

impl Arena for nsolo::Position {
    fn any(&self) -> AnyPosition {
        AnyPosition::Nsolo(self.clone())
    }
    fn protocol(start: &Self, moves: &[nsolo::Move]) -> String {
        protocol_line(start, moves)
    }
    fn random_move(&self, rng: &mut SmallRng) -> Option<nsolo::Move> {
        let count = self.count_moves();
        (count > 0).then(|| {
            let k = rng.gen_range(0..count.min(u128::from(u64::MAX)) as u64);
            self.legal_moves().nth(k as usize).expect("k < count")
        })
    }
}

/// A finished game: A's score (1, ½, 0), the reason, each contestant's move
/// times, and the moves as an engine-protocol line.
type Played = (f64, String, [Vec<Duration>; 2], String);

/// Random plies before the contestants move by default: two in Yoté, one
/// each; one in Nsolo, whose plies are long and whose one random ply rarely
/// decides much. Yoté's two give at most 600 openings, 58 up to the
/// board's symmetries once judged level (docs/strength.md, "How many
/// openings"), so long matches replay the same few: `--opening-plies`
/// draws more.
pub fn default_opening_plies(game: Game) -> usize {
    match game {
        Game::Yote => 2,
        Game::Nsolo => 1,
    }
}

/// The depth of the search that judges a random opening level.
fn judging_depth<P: Arena>() -> u32 {
    if P::NAME == "yote" { 8 } else { 4 }
}

/// The most an opening may favour either side: a ball in Yoté, a stone in
/// Nsolo.
const OPENING_MARGIN: i32 = 100;
/// Draws of random plies before an unbalanced opening is kept anyway.
const OPENING_TRIES: usize = 50;

/// The random opening of a pair of games: redrawn until Expert's search at
/// a fixed depth finds it level. A random ply that hands a side material
/// before either contestant has moved decides the game by the dice: the
/// loser of that game never had a chance, and its paired game only hides
/// it in the score.
fn opening<P: Arena>(
    start: &P,
    plies: usize,
    seed: u64,
    params: &Params,
) -> anyhow::Result<Record<P>> {
    let mut rng = SmallRng::seed_from_u64(seed);
    let mut tt = Table::new(params.tt_bits.min(18));
    // One thread, so that the same seed always draws the same opening.
    let single = Params {
        threads: 1,
        ..params.clone()
    };
    let mut record = Record::new(start.clone());
    for _ in 0..OPENING_TRIES {
        record = Record::new(start.clone());
        for _ in 0..plies {
            if record.outcome().is_some() {
                break;
            }
            let Some(m) = record.position().random_move(&mut rng) else {
                break;
            };
            record
                .play(&m)
                .map_err(|e| anyhow::anyhow!("opening: {e}"))?;
        }
        if record.outcome().is_none() && level(record.position(), &single, &mut tt) {
            break;
        }
    }
    Ok(record)
}

/// Whether Expert's fixed-depth search finds `position` level.
fn level<P: Arena>(position: &P, params: &Params, tt: &mut Table) -> bool {
    let req = Request {
        position: position.any(),
        history: Vec::new(),
        level: Level::Expert,
        limits: Limits::new().with(SearchLimit::Depth(judging_depth::<P>())),
        seed: 0,
        tables: None,
        ponder: Default::default(),
    };
    think(&req, params, tt, &AtomicBool::new(false), |_| {})
        .score
        .abs()
        <= OPENING_MARGIN
}

/// Hashes of the positions before the current one.
fn history_of<P: Arena>(record: &Record<P>) -> Vec<u64> {
    (0..record.ply())
        .filter_map(|i| record.position_at(i))
        .map(P::hash)
        .collect()
}

/// Plays one game; `a_first` tells whether A moves first.
fn play<P: Arena>(
    start: &P,
    players: [&mut Contestant; 2],
    a_first: bool,
    opening_seed: u64,
    settings: &Settings,
    params: &Params,
) -> anyhow::Result<Played> {
    let [pa, pb] = players;
    pa.new_game()?;
    pb.new_game()?;
    let mut record = opening(start, settings.opening_plies, opening_seed, params)?;
    let first_mover = record.position().turn();
    let mut times: [Vec<Duration>; 2] = Default::default();
    let clocks = [settings.clock, settings.b_clock];
    let mut left = clocks.map(|c| c.map(|c| c.start));
    let players = if a_first { [pa, pb] } else { [pb, pa] };
    loop {
        if let Some(outcome) = record.outcome() {
            let score = match outcome {
                Outcome::Win { winner, .. } => {
                    f64::from(u8::from((winner == first_mover) == a_first))
                }
                Outcome::Draw { .. } => 0.5,
            };
            let reason = match outcome {
                Outcome::Win { reason, .. } => reason.to_string(),
                Outcome::Draw { reason } => reason.to_string(),
            };
            return Ok((
                score,
                reason,
                times,
                P::protocol(record.start(), record.moves()),
            ));
        }
        if record.ply() >= MAX_PLIES {
            return Ok((
                0.5,
                "adjudicated".into(),
                times,
                P::protocol(record.start(), record.moves()),
            ));
        }
        let side = usize::from(record.position().turn() != first_mover);
        let history = history_of(&record);
        let line = P::protocol(record.start(), record.moves());
        let who = usize::from((side == 0) != a_first);
        let turn = Turn {
            position: &record.position().any(),
            history: &history,
            protocol_position: line.clone(),
            movetime: [settings.movetime, settings.b_movetime][who],
            nodes: [settings.nodes, settings.b_nodes][who],
            clock: left[who].zip(clocks[who].map(|c| c.increment)),
            seed: opening_seed ^ (record.ply() as u64) << 32,
        };
        players[side].finish_budgeted_ponder()?;
        let started = Instant::now();
        let choice = players[side].choose(&turn);
        let spent = started.elapsed();
        times[who].push(spent);
        let a_moving = who == 0;
        let forfeit = |why: String, line: String| {
            let score = if a_moving { 0.0 } else { 1.0 };
            Ok((score, why, times.clone(), line))
        };
        if let (Some(clock), Some(l)) = (clocks[who], left[who]) {
            left[who] = clock.after(l, spent);
            if left[who].is_none() {
                return forfeit("time".into(), line);
            }
        }
        // An engine that crashed or went silent loses the game; it is
        // started again for the next one.
        let choice = match choice {
            Err(e) => match e.downcast_ref::<Gone>() {
                Some(gone) => return forfeit(gone.to_string(), line),
                None => return Err(e),
            },
            Ok(choice) => choice,
        };
        let Some(text) = choice else {
            return forfeit("no move given".into(), line);
        };
        let Ok(m) = text.parse::<P::Move>() else {
            return forfeit(format!("malformed move {text}"), line);
        };
        if let Err(e) = record.play(&m) {
            return forfeit(format!("illegal move {text}: {e}"), line);
        }
        if settings.ponder[who] && record.outcome().is_none() {
            // Within the other side's node budget, if it has one.
            let history = history_of(&record);
            let theirs = Turn {
                position: &record.position().any(),
                history: &history,
                protocol_position: P::protocol(record.start(), record.moves()),
                movetime: None,
                nodes: [settings.nodes, settings.b_nodes][1 - who],
                clock: None,
                seed: turn.seed,
            };
            players[side].ponder(&theirs)?;
        }
    }
}

fn run_games<P: Arena>(start: &P, settings: &Settings, params: &Params) -> anyhow::Result<Tally> {
    let tally = Mutex::new(Tally::default());
    let next = AtomicUsize::new(0);
    let records = settings
        .records
        .as_ref()
        .map(std::fs::File::create)
        .transpose()
        .context("creating the records file")?
        .map(Mutex::new);
    let tables = settings
        .tables
        .as_deref()
        .map(crate::engine::open_tables)
        .transpose()?;
    std::thread::scope(|scope| -> anyhow::Result<()> {
        let workers: Vec<_> = (0..settings.jobs.max(1))
            .map(|_| {
                scope.spawn(|| -> anyhow::Result<()> {
                    let mut a = Contestant::new(&settings.a, params, tables.clone())?;
                    let mut b = Contestant::new(&settings.b, params, tables.clone())?;
                    loop {
                        let i = next.fetch_add(1, Ordering::SeqCst);
                        if i >= settings.games {
                            return Ok(());
                        }
                        let opening_seed = settings
                            .seed
                            .wrapping_mul(1_000_003)
                            .wrapping_add((i / 2) as u64);
                        let (score, reason, times, position) = play(
                            start,
                            [&mut a, &mut b],
                            i.is_multiple_of(2),
                            opening_seed,
                            settings,
                            params,
                        )?;
                        if let Some(file) = &records {
                            // A's score, and the protocol line that replays the game.
                            let game = serde_json::json!({
                                "game": i,
                                "a_first": i.is_multiple_of(2),
                                "score": score,
                                "reason": reason,
                                "position": position,
                                "opening_plies": settings.opening_plies,
                            });
                            let mut file = file.lock().expect("records");
                            serde_json::to_writer(&mut *file, &game)?;
                            writeln!(file)?;
                        }
                        let mut t = tally.lock().expect("tally");
                        match score {
                            s if s > 0.75 => t.wins += 1,
                            s if s < 0.25 => t.losses += 1,
                            _ => t.draws += 1,
                        }
                        t.results.push(score);
                        *t.reasons.entry(reason).or_default() += 1;
                        for (all, new) in t.times.iter_mut().zip(times) {
                            all.extend(new);
                        }
                        eprintln!(
                            "game {}/{}: +{} ={} -{}",
                            t.results.len(),
                            settings.games,
                            t.wins,
                            t.draws,
                            t.losses
                        );
                    }
                })
            })
            .collect();
        for w in workers {
            w.join().expect("arena thread")?;
        }
        Ok(())
    })?;
    Ok(tally.into_inner().expect("tally"))
}

fn elo(score: f64) -> f64 {
    -400.0 * (1.0 / score.clamp(1e-6, 1.0 - 1e-6) - 1.0).log10()
}

fn percentile(times: &mut [Duration], p: f64) -> Duration {
    if times.is_empty() {
        return Duration::ZERO;
    }
    times.sort();
    times[((times.len() - 1) as f64 * p).round() as usize]
}

fn print_report(settings: &Settings, mut t: Tally) {
    let n = t.results.len() as f64;
    let mean = t.results.iter().sum::<f64>() / n;
    let var = t.results.iter().map(|x| (x - mean).powi(2)).sum::<f64>() / n;
    let margin = 1.96 * (var / n).sqrt();
    let (lo, hi) = (elo(mean - margin), elo(mean + margin));
    println!(
        "arena {:?}: A = {} vs B = {}, {} games",
        settings.game,
        settings.a,
        settings.b,
        t.results.len()
    );
    println!("A wins {}, draws {}, losses {}", t.wins, t.draws, t.losses);
    println!("score {:.1}% ({:.1}/{})", 100.0 * mean, mean * n, n);
    println!(
        "elo {:+.0} ± {:.0} (95%: {:+.0} to {:+.0})",
        elo(mean),
        (hi - lo) / 2.0,
        lo,
        hi
    );
    for (name, times) in ["A", "B"].iter().zip(t.times.iter_mut()) {
        let count = times.len();
        let (p50, p95, max) = (
            percentile(times, 0.5),
            percentile(times, 0.95),
            percentile(times, 1.0),
        );
        println!("{name} move time: p50 {p50:?}, p95 {p95:?}, max {max:?} over {count} moves");
    }
    let reasons: Vec<String> = t.reasons.iter().map(|(r, c)| format!("{r} {c}")).collect();
    println!("endings: {}", reasons.join(", "));
}

pub fn run(settings: Settings, params: Params) -> anyhow::Result<()> {
    for (spec, ponder) in [&settings.a, &settings.b].iter().zip(settings.ponder) {
        if ponder && !Contestant::can_ponder(spec) {
            anyhow::bail!("{spec} cannot ponder: only Expert or an engine: contestant can");
        }
    }
    let tally = match settings.game {
        Game::Yote => run_games(&yote::Position::START, &settings, &params)?,
        Game::Nsolo => {
            let start =
                nsolo::Position::start(settings.size).map_err(|e| anyhow::anyhow!("{e}"))?;
            run_games(&start, &settings, &params)?
        }
    };
    print_report(&settings, tally);
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_clock_is_read_charged_and_runs_out() {
        let ms = Duration::from_millis;
        let clock: GameClock = "60000+500".parse().unwrap();
        assert_eq!((clock.start, clock.increment), (ms(60_000), ms(500)));
        let plain: GameClock = "2000".parse().unwrap();
        assert_eq!((plain.start, plain.increment), (ms(2000), ms(0)));
        for bad in [
            "",
            "0",
            "fast",
            "100+",
            "+100",
            "-5",
            "1+2+3",
            "86400001",
            "5+86400001",
        ] {
            assert!(bad.parse::<GameClock>().is_err(), "{bad:?}");
        }
        assert_eq!(clock.after(ms(1000), ms(300)), Some(ms(1200)));
        assert_eq!(clock.after(ms(1000), ms(1000)), None);
        assert_eq!(clock.after(ms(1000), ms(1001)), None);
    }
}
