//! Arena players: a level, the greedy yardstick, the plain alpha-beta
//! reference (both games) and the plain Monte-Carlo tree search (Yoté), or
//! any program speaking the engine protocol (`engine:<command line>`).

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};
use std::str::FromStr;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use anyhow::{Context, bail};
use crossbeam_channel::{Receiver, RecvTimeoutError};
use palabre_ai::greedy::greedy_move;
use palabre_ai::player::{AnyPosition, think};
use palabre_ai::tables::Tables;
use palabre_ai::tt::Table;
use palabre_ai::{Level, Limits, Params, Ponder, Request, SearchLimit, game_clock, reference, uct};

/// How a contestant is named on the command line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Spec {
    /// A level; `level@N` also sets how many Nsolo bonus policies its search
    /// compares for each capture where it is deep (to measure the bonus
    /// choice: `expert@2` compares two everywhere).
    Level(Level, Option<usize>),
    Greedy,
    /// [`palabre_ai::reference`], the stand-in for outside programs.
    Reference,
    /// [`palabre_ai::uct`], Yoté's stand-in for outside programs that sample.
    Uct,
    Engine(String),
}

impl FromStr for Spec {
    type Err = String;

    fn from_str(s: &str) -> Result<Spec, String> {
        if let Some(cmd) = s.strip_prefix("engine:") {
            return Ok(Spec::Engine(cmd.to_owned()));
        }
        match s {
            "greedy" => return Ok(Spec::Greedy),
            "reference" => return Ok(Spec::Reference),
            "uct" => return Ok(Spec::Uct),
            _ => {}
        }
        let (level, policies) = match s.split_once('@') {
            Some((level, n)) => {
                let n: usize = n
                    .parse()
                    .map_err(|_| format!("bad policy count in {s:?}"))?;
                if !(1..=palabre_ai::nsolo::POLICY_COUNT).contains(&n) {
                    return Err(format!(
                        "{s:?}: 1 to {} policies",
                        palabre_ai::nsolo::POLICY_COUNT
                    ));
                }
                (level, Some(n))
            }
            None => (s, None),
        };
        level
            .parse()
            .map(|l| Spec::Level(l, policies))
            .map_err(|e| format!("{e}, greedy, reference, uct or engine:<command>"))
    }
}

impl std::fmt::Display for Spec {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Spec::Level(l, None) => write!(f, "{l}"),
            Spec::Level(l, Some(n)) => write!(f, "{l}@{n}"),
            Spec::Greedy => f.write_str("greedy"),
            Spec::Reference => f.write_str("reference"),
            Spec::Uct => f.write_str("uct"),
            Spec::Engine(cmd) => write!(f, "engine:{cmd}"),
        }
    }
}

/// What a contestant needs to choose a move.
pub struct Turn<'a> {
    pub position: &'a AnyPosition,
    /// Hashes of the earlier positions.
    pub history: &'a [u64],
    /// `position <game> ...` for an external engine.
    pub protocol_position: String,
    pub movetime: Option<Duration>,
    /// A node budget for the search, with or without a time.
    pub nodes: Option<u64>,
    /// The mover's game clock: time left and increment.
    pub clock: Option<(Duration, Duration)>,
    pub seed: u64,
}

impl Turn<'_> {
    /// The turn's time and node budget as search limits.
    fn limits(&self) -> Limits {
        let mut limits = Limits::new();
        if let Some(t) = self.movetime {
            limits = limits.with(SearchLimit::MoveTime(t));
        }
        if let Some(n) = self.nodes {
            limits = limits.with(SearchLimit::Nodes(n));
        }
        if let Some((left, increment)) = self.clock {
            limits = limits.with(SearchLimit::Clock { left, increment });
        }
        limits
    }

    /// The search request of `level` for this turn.
    fn request(&self, level: Level, tables: &Option<Arc<Tables>>, ponder: Ponder) -> Request {
        Request {
            position: self.position.clone(),
            history: self.history.to_vec(),
            level,
            limits: self.limits(),
            seed: self.seed,
            tables: tables.clone(),
            ponder,
        }
    }
}

pub enum Contestant {
    Level {
        level: Level,
        params: Params,
        table: LevelTable,
        /// Endgame tables, for Expert only, as the server gives them.
        tables: Option<Arc<Tables>>,
    },
    Greedy,
    /// Under a game clock it spreads its time evenly over the moves
    /// Expert expects (`params` with every move weighing alike).
    Reference {
        params: Params,
    },
    /// Spreads a game clock as the reference does.
    Uct {
        params: Params,
    },
    Engine(Engine),
}

impl Contestant {
    pub fn new(
        spec: &Spec,
        params: &Params,
        tables: Option<Arc<Tables>>,
    ) -> anyhow::Result<Contestant> {
        Ok(match spec {
            Spec::Level(level, policies) => Contestant::Level {
                level: *level,
                params: Params {
                    nsolo_wide_policies: policies.unwrap_or(params.nsolo_wide_policies),
                    nsolo_policies: policies
                        .unwrap_or(params.nsolo_policies)
                        .min(params.nsolo_policies),
                    ..params.clone()
                },
                table: LevelTable::new(params.tt_bits),
                tables: tables.filter(|_| *level == Level::Expert),
            },
            Spec::Greedy => Contestant::Greedy,
            Spec::Reference => Contestant::Reference {
                params: even_clock(params),
            },
            Spec::Uct => Contestant::Uct {
                params: even_clock(params),
            },
            Spec::Engine(cmd) => Contestant::Engine(Engine::spawn(cmd)?),
        })
    }

    /// The move in notation, or `None` if the contestant sees none.
    pub fn choose(&mut self, turn: &Turn<'_>) -> anyhow::Result<Option<String>> {
        Ok(match self {
            Contestant::Level {
                level,
                params,
                table,
                tables,
            } => {
                let (tt, ponder) = table.for_a_move();
                let req = turn.request(*level, tables, ponder);
                think(&req, params, tt, &AtomicBool::new(false), |_| {})
                    .best
                    .map(|m| m.to_string())
            }
            Contestant::Greedy => greedy_move(turn.position, turn.seed).map(|m| m.to_string()),
            Contestant::Reference { params } => {
                let limits = yardstick_limits(turn, params);
                match turn.position {
                    AnyPosition::Yote(pos) => {
                        reference::yote::best_move(pos, &limits).map(|m| m.to_string())
                    }
                    AnyPosition::Nsolo(pos) => {
                        reference::nsolo::best_move(pos, turn.history, &limits)
                            .map(|m| m.to_string())
                    }
                }
            }
            Contestant::Uct { params } => {
                let AnyPosition::Yote(pos) = turn.position else {
                    bail!("the uct player plays Yoté only");
                };
                let limits = yardstick_limits(turn, params);
                uct::best_move(pos, &limits, turn.seed).map(|m| m.to_string())
            }
            Contestant::Engine(engine) => engine.choose(turn)?,
        })
    }

    /// Readies the contestant for a new game: an engine's ponder on the
    /// last game ends, and `newgame` makes it forget that game's table, so
    /// that each game plays the same whichever game came before it.
    pub fn new_game(&mut self) -> anyhow::Result<()> {
        match self {
            Contestant::Engine(engine) => engine.new_game()?,
            Contestant::Level { table, .. } => table.new_game(),
            _ => {}
        }
        Ok(())
    }

    /// Whether this contestant can think on the opponent's time: an engine
    /// (whether it does is its own affair) or Expert, the one level that
    /// reads what a ponder found.
    pub fn can_ponder(spec: &Spec) -> bool {
        matches!(spec, Spec::Engine(_) | Spec::Level(Level::Expert, _))
    }

    /// Starts thinking on the opponent's time about `turn`, the position
    /// they are to move in, within its limits: with none, until this
    /// contestant's next turn stops it. Contestants that cannot ponder
    /// ignore it.
    pub fn ponder(&mut self, turn: &Turn<'_>) -> anyhow::Result<()> {
        match self {
            Contestant::Engine(engine) => engine.ponder(&turn.protocol_position, &turn.limits()),
            Contestant::Level {
                level: Level::Expert,
                params,
                table,
                tables,
            } => {
                let req = turn.request(Level::Expert, tables, Ponder::OnTheirTime);
                table.ponder(req, params.clone());
                Ok(())
            }
            _ => Ok(()),
        }
    }

    /// Lets a ponder within a node budget run to its end: that is the
    /// opponent's time, not the turn's (a timed ponder is stopped by the
    /// turn itself, and the stop is charged to it).
    pub fn finish_budgeted_ponder(&mut self) -> anyhow::Result<()> {
        match self {
            Contestant::Engine(engine) if engine.pondering == Some(Pondering::WithinBudget) => {
                unless_gone(engine.end_ponder())
            }
            Contestant::Level { table, .. } => {
                table.finish_budgeted_ponder();
                Ok(())
            }
            _ => Ok(()),
        }
    }
}

/// A level's transposition table, lent to Expert's ponder while one runs.
pub struct LevelTable {
    /// A two-slot stand-in while a ponder holds the real one.
    tt: Box<Table>,
    ponder: Option<LevelPonder>,
    /// Whether the last search was a ponder, whose table the next reads.
    pondered: bool,
}

impl LevelTable {
    fn new(bits: u32) -> LevelTable {
        LevelTable {
            tt: Box::new(Table::new(bits)),
            ponder: None,
            pondered: false,
        }
    }

    /// The table for the next move, back from any ponder, and whether that
    /// move reads what the ponder left in it.
    fn for_a_move(&mut self) -> (&mut Table, Ponder) {
        self.end_ponder();
        let ponder = if std::mem::take(&mut self.pondered) {
            Ponder::After
        } else {
            Ponder::Off
        };
        (&mut self.tt, ponder)
    }

    /// Starts `req`, a ponder, on a thread that holds the table until it
    /// ends.
    fn ponder(&mut self, req: Request, params: Params) {
        self.end_ponder();
        let tt = std::mem::replace(&mut self.tt, Box::new(Table::new(1)));
        self.ponder = Some(LevelPonder::start(req, params, tt));
        self.pondered = true;
    }

    /// Ends any ponder and forgets it: a new game's first move starts from
    /// an empty table.
    fn new_game(&mut self) {
        self.end_ponder();
        self.pondered = false;
    }

    fn finish_budgeted_ponder(&mut self) {
        if self
            .ponder
            .as_ref()
            .is_some_and(|p| p.how == Pondering::WithinBudget)
        {
            self.end_ponder();
        }
    }

    fn end_ponder(&mut self) {
        if let Some(running) = self.ponder.take() {
            self.tt = running.end();
        }
    }
}

/// Expert thinking on the opponent's time on a thread of its own, as the
/// engine protocol's `go ponder` does.
struct LevelPonder {
    stop: Arc<AtomicBool>,
    thread: Option<JoinHandle<Box<Table>>>,
    how: Pondering,
}

impl LevelPonder {
    fn start(req: Request, params: Params, mut tt: Box<Table>) -> LevelPonder {
        let how = if req.limits.nodes().is_some() {
            Pondering::WithinBudget
        } else {
            Pondering::UntilStopped
        };
        let stop = Arc::new(AtomicBool::new(false));
        let flag = Arc::clone(&stop);
        let thread = std::thread::spawn(move || {
            think(&req, &params, &mut tt, &flag, |_| {});
            tt
        });
        LevelPonder {
            stop,
            thread: Some(thread),
            how,
        }
    }

    /// Ends the ponder (stopped, or waited for within its budget) and gives
    /// its table back.
    fn end(mut self) -> Box<Table> {
        if self.how == Pondering::UntilStopped {
            self.stop.store(true, Ordering::Relaxed);
        }
        let thread = self.thread.take().expect("a ponder ends once");
        thread.join().expect("ponder thread")
    }
}

impl Drop for LevelPonder {
    /// A contestant dropped while pondering must not leave a search running
    /// with nobody to stop it.
    fn drop(&mut self) {
        if let Some(thread) = self.thread.take() {
            self.stop.store(true, Ordering::Relaxed);
            let _ = thread.join();
        }
    }
}

/// The yardsticks' clock: every move weighs alike.
fn even_clock(params: &Params) -> Params {
    Params {
        clock_placement_weight: 1.0,
        ..params.clone()
    }
}

/// A yardstick's limits: its share of a clock, and a second a move when
/// nothing bounds it.
fn yardstick_limits(turn: &Turn<'_>, params: &Params) -> Limits {
    let limits = game_clock::with_budget(turn.limits(), turn.position, params);
    if limits.is_infinite() {
        limits.with(SearchLimit::MoveTime(Duration::from_secs(1)))
    } else {
        limits
    }
}

/// Why an engine gave no move: its side loses the game, and the engine is
/// started again for the next one.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Gone {
    /// It closed its output or its input (it crashed or quit).
    Closed,
    /// It gave no answer within its time and [`ANSWER_GRACE`].
    Silent,
}

impl std::fmt::Display for Gone {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Gone::Closed => "engine closed its output",
            Gone::Silent => "engine gave no answer in time",
        })
    }
}

impl std::error::Error for Gone {}

/// `Ok` if `result` only failed because the engine is gone: the engine
/// remembers it, and its next move reports it.
fn unless_gone(result: anyhow::Result<()>) -> anyhow::Result<()> {
    match result {
        Err(e) if !e.is::<Gone>() => Err(e),
        _ => Ok(()),
    }
}

/// How much longer than its time an engine may take to answer before it is
/// given up: a hung engine must not hang the arena.
const ANSWER_GRACE: Duration = Duration::from_secs(2);

/// How long a new engine may take to answer its first `isready`: one that
/// starts but never gets ready must not hang the arena either. Generous,
/// as `palabre engine --tables` reads its tables (1.33 GB at 9 balls)
/// before it reads a command.
const READY_WAIT: Duration = Duration::from_secs(10);

/// A child process speaking the engine protocol.
pub struct Engine {
    command: String,
    child: Child,
    /// `None` once closed: an engine behind a wrapper (`tee log | engine`)
    /// only exits when its input ends, whatever `quit` says.
    input: Option<ChildStdin>,
    /// Its output's lines, read on a thread of their own so that a wait
    /// for an answer can end.
    output: Receiver<String>,
    pondering: Option<Pondering>,
    /// Why it can no longer be used, if it cannot.
    gone: Option<Gone>,
    /// Started and no game begun since: one that did not get ready loses
    /// its first game rather than be started again at once.
    fresh: bool,
}

/// Reads `output`'s lines into a channel until it ends.
fn read_lines(output: ChildStdout) -> Receiver<String> {
    let (lines, received) = crossbeam_channel::unbounded();
    std::thread::spawn(move || {
        let mut output = BufReader::new(output);
        let mut line = Vec::new();
        while matches!(output.read_until(b'\n', &mut line), Ok(n) if n > 0) {
            let text = String::from_utf8_lossy(&line).into_owned();
            if lines.send(text).is_err() {
                break;
            }
            line.clear();
        }
    });
    received
}

/// The latest an engine may answer under `limits`: its movetime or what is
/// left on its clock, and [`ANSWER_GRACE`]; with no time, whenever it does.
fn deadline(limits: &Limits) -> Option<Instant> {
    let time = match (limits.movetime(), limits.clock()) {
        (Some(t), Some((left, _))) => Some(t.min(left)),
        (t, clock) => t.or(clock.map(|(left, _)| left)),
    };
    time.map(|t| Instant::now() + t + ANSWER_GRACE)
}

/// How a running ponder ends.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Pondering {
    /// At `stop`, when the engine's turn comes.
    UntilStopped,
    /// By its node budget, waited for, so that a match on node budgets
    /// replays exactly.
    WithinBudget,
}

impl Engine {
    pub fn spawn(cmd: &str) -> anyhow::Result<Engine> {
        let mut words = cmd.split_whitespace();
        let program = words.next().context("empty engine command")?;
        let mut child = Command::new(program)
            .args(words)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .spawn()
            .with_context(|| format!("starting {cmd}"))?;
        let input = child.stdin.take().context("engine stdin")?;
        let output = read_lines(child.stdout.take().context("engine stdout")?);
        let mut engine = Engine {
            command: cmd.to_owned(),
            child,
            input: Some(input),
            output,
            pondering: None,
            gone: None,
            fresh: true,
        };
        engine.send("isready")?;
        // Silent past READY_WAIT, it is gone as an engine silent on a move
        // is: its next move reports it, and its side loses that game.
        match engine.wait_for("readyok", Some(Instant::now() + READY_WAIT)) {
            Err(e) if matches!(e.downcast_ref::<Gone>(), Some(Gone::Silent)) => {}
            ready => {
                ready?;
            }
        }
        Ok(engine)
    }

    /// Readies the engine for a new game; one that is gone is started
    /// again, unless it was just started.
    fn new_game(&mut self) -> anyhow::Result<()> {
        let fresh = std::mem::replace(&mut self.fresh, false);
        let ready = self.end_ponder().and_then(|()| self.send("newgame"));
        if self.gone.is_some() {
            if !fresh {
                *self = Engine::spawn(&self.command)?;
                // Started for this game: gone by its end, it starts again.
                self.fresh = false;
            }
            return Ok(());
        }
        ready
    }

    fn send(&mut self, line: &str) -> anyhow::Result<()> {
        if let Some(gone) = self.gone {
            return Err(gone.into());
        }
        let input = self.input.as_mut().context("engine input closed")?;
        if writeln!(input, "{line}")
            .and_then(|()| input.flush())
            .is_err()
        {
            self.gone = Some(Gone::Closed);
            return Err(Gone::Closed.into());
        }
        Ok(())
    }

    fn wait_for(&mut self, prefix: &str, deadline: Option<Instant>) -> anyhow::Result<String> {
        loop {
            if let Some(gone) = self.gone {
                return Err(gone.into());
            }
            let next = match deadline {
                Some(at) => self.output.recv_deadline(at),
                None => self
                    .output
                    .recv()
                    .map_err(|_| RecvTimeoutError::Disconnected),
            };
            let line = match next {
                Ok(line) => line,
                Err(RecvTimeoutError::Timeout) => {
                    self.gone = Some(Gone::Silent);
                    continue;
                }
                Err(RecvTimeoutError::Disconnected) => {
                    self.gone = Some(Gone::Closed);
                    continue;
                }
            };
            if line.starts_with(prefix) {
                return Ok(line.trim_end().to_owned());
            }
            if let Some(e) = line.strip_prefix("error") {
                bail!("engine error:{}", e.trim_end());
            }
        }
    }

    fn choose(&mut self, turn: &Turn<'_>) -> anyhow::Result<Option<String>> {
        self.best(&turn.protocol_position, &turn.limits())
    }

    /// Starts a `go ponder` on `position` (a `position …` command, the
    /// opponent to move); the next [`Engine::best`] ends it.
    /// An engine that is gone does not ponder: its next move reports it.
    pub fn ponder(&mut self, position: &str, limits: &Limits) -> anyhow::Result<()> {
        unless_gone(self.start_ponder(position, limits))
    }

    fn start_ponder(&mut self, position: &str, limits: &Limits) -> anyhow::Result<()> {
        self.end_ponder()?;
        self.send(position)?;
        self.send(&go_command(limits, true))?;
        self.pondering = Some(if limits.nodes().is_some() {
            Pondering::WithinBudget
        } else {
            Pondering::UntilStopped
        });
        Ok(())
    }

    /// Ends a running ponder (stopped, or waited for within its budget) and
    /// drops its answer, the move it expected from the opponent.
    fn end_ponder(&mut self) -> anyhow::Result<()> {
        if let Some(pondering) = self.pondering.take() {
            let deadline = match pondering {
                Pondering::UntilStopped => {
                    self.send("stop")?;
                    Some(Instant::now() + ANSWER_GRACE)
                }
                Pondering::WithinBudget => None,
            };
            self.wait_for("bestmove", deadline)?;
        }
        Ok(())
    }

    /// The engine's move after `position` (a `position …` command), within
    /// `limits`; `None` when it sees the game over. An engine that does not
    /// answer within the limits' time and [`ANSWER_GRACE`] fails with
    /// [`Gone::Silent`].
    pub fn best(&mut self, position: &str, limits: &Limits) -> anyhow::Result<Option<String>> {
        let deadline = deadline(limits);
        self.end_ponder()?;
        self.send(position)?;
        self.send(&go_command(limits, false))?;
        let line = self.wait_for("bestmove", deadline)?;
        let best = line.trim_start_matches("bestmove").trim();
        Ok((best != "none").then(|| best.to_owned()))
    }
}

/// The engine protocol's `go` (or `go ponder`) for `limits`.
fn go_command(limits: &Limits, ponder: bool) -> String {
    let mut go = String::from(if ponder { "go ponder" } else { "go" });
    for limit in &limits.0 {
        go += &match limit {
            SearchLimit::Depth(d) => format!(" depth {d}"),
            SearchLimit::MoveTime(t) => format!(" movetime {}", t.as_millis()),
            SearchLimit::Nodes(n) => format!(" nodes {n}"),
            SearchLimit::Clock { left, increment } => {
                format!(" clock {} inc {}", left.as_millis(), increment.as_millis())
            }
        };
    }
    go
}

/// How long an engine may take to exit once told to quit.
const QUIT_GRACE: Duration = Duration::from_secs(2);

impl Drop for Engine {
    fn drop(&mut self) {
        // Even to an engine given up as silent: it may only be slow.
        if let Some(input) = self.input.as_mut() {
            let _ = writeln!(input, "quit").and_then(|()| input.flush());
        }
        self.input = None;
        let deadline = std::time::Instant::now() + QUIT_GRACE;
        while std::time::Instant::now() < deadline {
            if !matches!(self.child.try_wait(), Ok(None)) {
                return;
            }
            std::thread::sleep(Duration::from_millis(10));
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn specs_read_levels_policies_and_engines() {
        assert_eq!("expert".parse(), Ok(Spec::Level(Level::Expert, None)));
        assert_eq!(
            "confirme@1".parse(),
            Ok(Spec::Level(Level::Confirme, Some(1)))
        );
        assert_eq!("greedy".parse(), Ok(Spec::Greedy));
        assert_eq!("reference".parse(), Ok(Spec::Reference));
        assert_eq!(Spec::Reference.to_string(), "reference");
        assert_eq!("uct".parse(), Ok(Spec::Uct));
        assert_eq!(Spec::Uct.to_string(), "uct");
        assert_eq!(
            "engine:palabre engine".parse(),
            Ok(Spec::Engine("palabre engine".into()))
        );
        assert!("expert@9".parse::<Spec>().is_err());
        assert!("grandmaster".parse::<Spec>().is_err());
        assert_eq!(Spec::Level(Level::Expert, Some(2)).to_string(), "expert@2");
    }

    #[test]
    fn limits_become_one_go_command() {
        let ms = Duration::from_millis;
        assert_eq!(go_command(&Limits::new(), false), "go");
        assert_eq!(
            go_command(&Limits::new().with(SearchLimit::Nodes(9)), true),
            "go ponder nodes 9"
        );
        let limits = Limits::new()
            .with(SearchLimit::MoveTime(ms(30)))
            .with(SearchLimit::Nodes(5000))
            .with(SearchLimit::Clock {
                left: ms(61_500),
                increment: ms(3000),
            });
        assert_eq!(
            go_command(&limits, false),
            "go movetime 30 nodes 5000 clock 61500 inc 3000"
        );
    }
}
