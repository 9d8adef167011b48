//! `palabre engine`: the line protocol any program can drive Palabre's AI
//! with (see docs/engine-protocol.md). The search runs in a worker; this
//! module only parses commands and prints what the worker reports.

use std::collections::VecDeque;
use std::io::{BufRead, Read, Write};
use std::path::Path;
use std::sync::Arc;
use std::time::{Duration, Instant};

use palabre_ai::player::AnyPosition;
use palabre_ai::tables::Tables;
use palabre_ai::worker::{Report, Worker};
use palabre_ai::{AnyMove, Level, Limits, Params, Ponder, Request, SearchLimit};
use palabre_rules::{GamePosition, Record, nsolo, yote};

/// The game being analysed, with its history.
enum Game {
    Yote(Record<yote::Position>),
    Nsolo(Record<nsolo::Position>),
}

impl Game {
    fn request(&self, level: Level, limits: Limits, seed: u64) -> Option<Request> {
        fn parts<P: GamePosition>(r: &Record<P>) -> Option<(P, Vec<u64>)> {
            if r.outcome().is_some() {
                return None;
            }
            let history = (0..r.ply())
                .filter_map(|i| r.position_at(i))
                .map(P::hash)
                .collect();
            Some((r.position().clone(), history))
        }
        let (position, history) = match self {
            Game::Yote(r) => parts(r).map(|(p, h)| (AnyPosition::Yote(p), h))?,
            Game::Nsolo(r) => parts(r).map(|(p, h)| (AnyPosition::Nsolo(p), h))?,
        };
        Some(Request {
            position,
            history,
            level,
            limits,
            seed,
            tables: None,
            ponder: Default::default(),
        })
    }
}

fn say(line: &str) {
    let mut out = std::io::stdout().lock();
    let _ = writeln!(out, "{line}");
    let _ = out.flush();
}

fn parse_position(args: &[&str]) -> Result<Game, String> {
    let split = args
        .iter()
        .position(|a| *a == "moves")
        .unwrap_or(args.len());
    let (setup, moves) = (&args[..split], args.get(split + 1..).unwrap_or(&[]));
    match setup {
        ["yote", "startpos"] => replay(yote::Position::START, moves).map(Game::Yote),
        ["yote", "fen", fen @ ..] => {
            let pos = fen.join(" ").parse().map_err(|e| format!("{e}"))?;
            replay(pos, moves).map(Game::Yote)
        }
        ["nsolo", "size", n] => {
            let size: u8 = n.parse().map_err(|_| format!("bad size {n:?}"))?;
            let pos = nsolo::Position::start(size).map_err(|e| format!("{e}"))?;
            replay(pos, moves).map(Game::Nsolo)
        }
        ["nsolo", "fen", fen @ ..] => {
            let pos = fen.join(" ").parse().map_err(|e| format!("{e}"))?;
            replay(pos, moves).map(Game::Nsolo)
        }
        _ => Err(
            "usage: position <yote startpos|yote fen F|nsolo size N|nsolo fen F> [moves ...]"
                .into(),
        ),
    }
}

fn replay<P: GamePosition>(start: P, moves: &[&str]) -> Result<Record<P>, String> {
    Record::replay(start, moves).map_err(|e| e.to_string())
}

/// A parsed `go`.
struct Go {
    level: Level,
    limits: Limits,
    /// `go ponder`: think on the opponent's time until `stop`.
    ponder: bool,
}

fn parse_go(args: &[&str]) -> Result<Go, String> {
    let mut level = Level::Expert;
    let mut ponder = false;
    let mut limits = Limits::new();
    let mut clock: Option<Duration> = None;
    let mut increment: Option<Duration> = None;
    let ms = |value: &str, what: &str| {
        value
            .parse::<u64>()
            .map(Duration::from_millis)
            .map_err(|_| format!("bad {what} {value:?}"))
    };
    let mut it = args.iter();
    while let Some(key) = it.next() {
        if *key == "ponder" {
            ponder = true;
            continue;
        }
        let value = it
            .next()
            .ok_or_else(|| format!("go: {key} needs a value"))?;
        match *key {
            "level" => level = value.parse().map_err(|e| format!("{e}"))?,
            "movetime" => {
                let t = ms(value, "movetime")?.max(Duration::from_millis(1));
                limits = limits.with(SearchLimit::MoveTime(t));
            }
            "nodes" => {
                let n: u64 = value.parse().map_err(|_| format!("bad nodes {value:?}"))?;
                limits = limits.with(SearchLimit::Nodes(n.max(1)));
            }
            "depth" => {
                let d: u32 = value.parse().map_err(|_| format!("bad depth {value:?}"))?;
                limits = limits.with(SearchLimit::Depth(d.max(1)));
            }
            "clock" => clock = Some(ms(value, "clock")?),
            "inc" => increment = Some(ms(value, "inc")?),
            other => return Err(format!("go: unknown parameter {other:?}")),
        }
    }
    match (clock, increment) {
        (Some(left), increment) => {
            limits = limits.with(SearchLimit::Clock {
                left,
                increment: increment.unwrap_or_default(),
            });
        }
        (None, Some(_)) => return Err("go: inc needs a clock".into()),
        (None, None) => {}
    }
    Ok(Go {
        level,
        limits,
        ponder,
    })
}

fn format_info(info: &palabre_ai::Info<AnyMove>) -> String {
    let ms = info.elapsed.as_millis().max(1) as u64;
    let pv: Vec<String> = info.pv.iter().map(ToString::to_string).collect();
    format!(
        "info depth {} score {} nodes {} nps {} pv {}",
        info.depth,
        info.score,
        info.nodes,
        info.nodes * 1000 / ms,
        pv.join(" ")
    )
}

/// `setoption <name> <value>`: the parameters with one of them set
/// (`threads`, or any tunable of [`Params`] by its field name).
fn parse_option(args: &[&str], params: &Params) -> Result<Params, String> {
    let [name, value] = args else {
        return Err("usage: setoption <name> <value> (threads, or a Params field)".into());
    };
    let mut next = params.clone();
    next.set(name, value)?;
    Ok(next)
}

/// The longest command line read. A game's whole move list fits many times
/// over; a longer line is skipped with an error rather than held in memory.
const MAX_LINE: usize = 1 << 20;

/// A line of input with when it was read, or why it could not be read as
/// a command.
enum Input {
    Line(String, Instant),
    Unreadable(String),
}

/// The next line of `input` without its line ending, or `None` at the end
/// of input. A line that is not UTF-8 or is longer than [`MAX_LINE`] is
/// skipped whole and reported, so that one bad line ends nothing.
fn read_line(input: &mut impl BufRead) -> std::io::Result<Option<Input>> {
    let mut bytes = Vec::new();
    let limit = MAX_LINE as u64 + 1;
    if input.by_ref().take(limit).read_until(b'\n', &mut bytes)? == 0 {
        return Ok(None);
    }
    if bytes.last() != Some(&b'\n') && bytes.len() > MAX_LINE {
        input.skip_until(b'\n')?;
        let why = format!("line longer than {MAX_LINE} bytes");
        return Ok(Some(Input::Unreadable(why)));
    }
    let end = bytes.strip_suffix(b"\n").unwrap_or(&bytes);
    let end = end.strip_suffix(b"\r").unwrap_or(end);
    Ok(Some(match std::str::from_utf8(end) {
        Ok(line) => Input::Line(line.to_owned(), Instant::now()),
        Err(_) => Input::Unreadable("line is not UTF-8".into()),
    }))
}

/// The engine's state between commands.
struct Session {
    worker: Worker,
    params: Params,
    game: Option<Game>,
    searching: bool,
    seed: u64,
    /// Endgame tables, for Expert only: the other levels keep their style.
    tables: Option<Arc<Tables>>,
    /// Whether the last search was a ponder, whose table the next reads.
    pondered: bool,
    /// Whether the last search was a ponder with no limit: only a `stop`
    /// ends it.
    endless: bool,
}

/// What the main loop should do after a command.
enum Next {
    Continue,
    Quit,
}

impl Session {
    /// Handles a command, read at `read`, while no search runs.
    fn command(&mut self, command: &str, args: &[&str], read: Instant) -> Next {
        match command {
            "isready" => say("readyok"),
            "quit" => return Next::Quit,
            "stop" => {}
            "newgame" => {
                self.game = None;
                self.pondered = false;
            }
            "position" => match parse_position(args) {
                Ok(g) => self.game = Some(g),
                Err(e) => say(&format!("error {e}")),
            },
            "go" => self.go(args, read),
            "setoption" => match parse_option(args, &self.params) {
                Ok(params) => {
                    self.worker.configure(params.clone());
                    self.params = params;
                }
                Err(e) => say(&format!("error {e}")),
            },
            other => say(&format!("error unknown command {other:?}")),
        }
        Next::Continue
    }

    /// Starts a search. The time since the `go` was `read` counts against
    /// its movetime and clock: the caller's clock ran while the commands
    /// before it were handled (replaying a long 4×36 game's moves takes
    /// about 0.2 ms, a fifth of a 1 ms move).
    fn go(&mut self, args: &[&str], read: Instant) {
        let Go {
            level,
            limits,
            ponder,
        } = match parse_go(args) {
            Ok(parsed) => parsed,
            Err(e) => return say(&format!("error {e}")),
        };
        let limits = limits.after(read.elapsed());
        let Some(game) = &self.game else {
            return say("error no position: send position first");
        };
        self.seed += 1;
        let endless = ponder && limits.is_infinite();
        match game.request(level, limits, self.seed) {
            Some(mut req) => {
                if level == Level::Expert {
                    req.tables = self.tables.clone();
                }
                // Only Expert reads a ponder's table: the other levels stay
                // reproducible from their seed.
                req.ponder = match (ponder, self.pondered && level == Level::Expert) {
                    (true, _) => Ponder::OnTheirTime,
                    (false, true) => Ponder::After,
                    (false, false) => Ponder::Off,
                };
                self.pondered = ponder;
                self.endless = endless;
                self.searching = true;
                self.worker.think(req);
            }
            None => say("bestmove none"),
        }
    }

    /// Handles the waiting commands in order, as far as it can: while a
    /// search runs, only an `isready` (answered), a `stop` or a `quit` (on
    /// that search) at the head of the queue acts, and the rest waits for
    /// its answer. In order, so
    /// that a `stop` sent after a `go ponder` stops the ponder, not the
    /// search before it. Returns whether `quit` was read.
    fn drain(&mut self, pending: &mut VecDeque<Input>) -> bool {
        while let Some(input) = pending.pop_front() {
            let (line, read) = match input {
                Input::Line(line, read) => (line, read),
                Input::Unreadable(why) if !self.searching => {
                    say(&format!("error {why}"));
                    continue;
                }
                unreadable @ Input::Unreadable(_) => {
                    pending.push_front(unreadable);
                    return false;
                }
            };
            let words: Vec<&str> = line.split_whitespace().collect();
            let Some((command, args)) = words.split_first() else {
                continue;
            };
            match (*command, self.searching) {
                ("isready", true) => say("readyok"),
                ("stop", true) => self.worker.stop(),
                ("quit", true) => {
                    self.worker.stop();
                    return true;
                }
                (_, true) => {
                    pending.push_front(Input::Line(line, read));
                    return false;
                }
                (_, false) => {
                    if matches!(self.command(command, args, read), Next::Quit) {
                        return true;
                    }
                }
            }
        }
        false
    }

    fn report(&mut self, report: Report) {
        match report {
            Report::Info(info) => say(&format_info(&info)),
            Report::Done(thought) => {
                self.searching = false;
                let best = thought
                    .best
                    .map_or_else(|| "none".to_owned(), |m| m.to_string());
                say(&format!("bestmove {best}"));
            }
        }
    }
}

/// Opens and reads the tables before the first command, so that no move
/// pays for a read (an engine is started before its games, as a rule).
pub fn open_tables(dir: &Path) -> anyhow::Result<Arc<Tables>> {
    let tables = Tables::open(dir)?;
    tables.preload()?;
    Ok(Arc::new(tables))
}

/// The tables in `./tables` when it holds any. Not asked for, so a set
/// that cannot be read is a warning, and the engine plays without.
fn default_tables() -> Option<Arc<Tables>> {
    let dir = Path::new(crate::tables::DEFAULT_DIR);
    let found = Tables::find(dir).and_then(|found| {
        found
            .map(|tables| tables.preload().map(|()| tables))
            .transpose()
    });
    match found {
        Ok(tables) => tables.map(Arc::new),
        Err(e) => {
            eprintln!("warning: {}: {e:#}; playing without tables", dir.display());
            None
        }
    }
}

/// Reads commands until `quit` or the end of input. Commands are handled in
/// order; while a search runs, an `isready`, `stop` or `quit` next in line
/// is answered or acts on it at once, and the rest wait their turn, so a
/// script may send a whole session without waiting.
pub fn run(params: Params, tables: Option<&Path>) -> anyhow::Result<()> {
    let tables = match tables {
        Some(dir) => Some(open_tables(dir)?),
        None => default_tables(),
    };
    let (lines_tx, lines) = crossbeam_channel::unbounded::<Input>();
    std::thread::spawn(move || {
        let mut stdin = std::io::stdin().lock();
        while let Ok(Some(line)) = read_line(&mut stdin) {
            if lines_tx.send(line).is_err() {
                break;
            }
        }
    });
    let worker = Worker::new(params.clone());
    let reports = worker.reports().clone();
    let mut session = Session {
        worker,
        params,
        game: None,
        searching: false,
        seed: 0,
        tables,
        pondered: false,
        endless: false,
    };
    let mut pending: VecDeque<Input> = VecDeque::new();
    let (mut quitting, mut input_open) = (false, true);
    loop {
        if !quitting {
            quitting = session.drain(&mut pending);
        }
        if !session.searching && (quitting || (!input_open && pending.is_empty())) {
            return Ok(());
        }
        if !input_open && session.searching && session.endless {
            // Nobody is left to stop this ponder: it would think for ever.
            session.worker.stop();
        }
        if !input_open || quitting {
            // Input is over or quit was asked: only the running search remains.
            session.report(reports.recv()?);
            continue;
        }
        crossbeam_channel::select! {
            recv(reports) -> report => session.report(report?),
            recv(lines) -> line => match line {
                Ok(line) => pending.push_back(line),
                Err(_) => input_open = false,
            },
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read_all(bytes: &[u8]) -> Vec<Result<String, String>> {
        let mut input = std::io::Cursor::new(bytes);
        std::iter::from_fn(|| read_line(&mut input).unwrap())
            .map(|line| match line {
                Input::Line(l, _) => Ok(l),
                Input::Unreadable(why) => Err(why),
            })
            .collect()
    }

    #[test]
    fn lines_are_read_whole_and_a_bad_one_is_skipped_whole() {
        let long = "x".repeat(MAX_LINE + 5);
        let fits = "y".repeat(MAX_LINE);
        let input = format!("go\r\n\n{long}\nisready\n{fits}\nquit");
        let mut bytes = input.into_bytes();
        bytes.extend(b"\nstop \xc3\n");
        let lines = read_all(&bytes);
        assert_eq!(lines.len(), 7);
        assert_eq!(lines[..2], [Ok("go".into()), Ok(String::new())]);
        assert!(lines[2].as_ref().is_err_and(|e| e.contains("longer")));
        assert_eq!(lines[3], Ok("isready".into()));
        assert_eq!(lines[4].as_ref().map(String::len), Ok(MAX_LINE));
        assert_eq!(lines[5], Ok("quit".into()));
        assert!(lines[6].as_ref().is_err_and(|e| e.contains("UTF-8")));
    }

    #[test]
    fn go_reads_a_game_clock() {
        let ms = Duration::from_millis;
        let go = parse_go(&["clock", "5000", "inc", "100"]).unwrap();
        assert_eq!(go.limits.clock(), Some((ms(5000), ms(100))));
        let go = parse_go(&["level", "confirme", "clock", "900"]).unwrap();
        assert_eq!(go.level, Level::Confirme);
        assert_eq!(go.limits.clock(), Some((ms(900), ms(0))));
        assert_eq!(parse_go(&[]).unwrap().limits.clock(), None);
        for bad in [
            &["inc", "100"][..],
            &["clock", "soon"],
            &["clock", "-5"],
            &["clock"],
        ] {
            assert!(parse_go(bad).is_err(), "{bad:?}");
        }
    }
}
