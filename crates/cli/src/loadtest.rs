//! `palabre loadtest`: measures a running server (on this machine) in one of
//! three modes.
//!
//! - `play` (the default): N online games played by bots over WebSockets.
//!   Reports moves per second, the move round-trip (sent to acknowledged)
//!   and errors, then checks in the database that every acknowledged move
//!   is there exactly once.
//! - `idle-games`: creates N games over HTTP, reads each once, and reports
//!   the server's memory (`GET /api/status`) before, right after, and once
//!   the idle games have left memory (start the server with a short
//!   `--idle-game`).
//! - `idle-sockets`: opens N spectator WebSockets on a few games, keeps them
//!   open and idle (answering pings), and reports the server's memory per
//!   socket, then closes them.
//!
//! `--addr` may name several nodes of one cluster (`A,B,C`): game `i` is
//! created on node `i mod n`, and in `play` the player `k` of game `i` (0
//! the creator, 1 the joiner) makes all its requests, HTTP and WebSocket,
//! on node `(i + k) mod n`, so with two nodes or more the two players of a
//! game are on different nodes. The idle sockets are spread over the nodes
//! too, and the servers' figures are summed over the nodes.
//!
//! Every mode needs room: start the server with the rate limits off and the
//! connection limits raised, and raise the open-file limit of both
//! processes (`ulimit -n`) above the sockets used.

use std::collections::{HashMap, HashSet};
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use anyhow::{Context, bail};
use futures_util::{SinkExt, StreamExt, stream};
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};
use serde_json::{Value, json};
use tokio::sync::{Mutex, watch};
use tokio_tungstenite::tungstenite::Message;
use tokio_tungstenite::tungstenite::protocol::WebSocketConfig;
use tokio_tungstenite::{MaybeTlsStream, WebSocketStream, connect_async_with_config};

/// What the load test does.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, clap::ValueEnum)]
pub enum Mode {
    /// Online games played by bot pairs over WebSockets.
    #[default]
    Play,
    /// Games created, read once and left idle until they leave memory.
    IdleGames,
    /// Spectator WebSockets opened and kept open, idle.
    IdleSockets,
}

#[derive(Debug, Clone)]
pub struct Settings {
    /// One node's address, or several separated by commas.
    pub addr: String,
    pub mode: Mode,
    /// Games played at once (`play`) or created (`idle-games`).
    pub games: usize,
    /// WebSockets opened (`idle-sockets`).
    pub sockets: usize,
    /// How long to play (`play`) or to keep the sockets open (`idle-sockets`).
    pub duration: Duration,
    /// A bot's thinking time before each move.
    pub think: Duration,
    /// The games' starts are spread over this (`play`).
    pub ramp: Duration,
    /// Longest wait for the idle games to leave memory (`idle-games`).
    pub wait: Duration,
    /// Times games are created and left to leave memory (`idle-games`).
    pub rounds: usize,
    /// The server's database (a SQLite file or a `postgres://` URL), to
    /// check the acknowledged moves against.
    pub db: Option<String>,
}

/// The nodes named by `--addr`: one address, or several separated by commas.
pub fn nodes(addr: &str) -> anyhow::Result<Vec<String>> {
    let nodes: Vec<String> = addr
        .split(',')
        .map(str::trim)
        .filter(|a| !a.is_empty())
        .map(str::to_owned)
        .collect();
    if nodes.is_empty() {
        bail!("--addr names no server");
    }
    Ok(nodes)
}

/// The node of player `k` (0 the creator) of game `i` among `n` nodes.
fn node_of(i: usize, k: usize, n: usize) -> usize {
    (i + k) % n
}

/// Requests or connections opened at once when creating games or sockets.
const CONCURRENCY: usize = 64;
/// Games the idle sockets watch.
const WATCHED_GAMES: usize = 10;
/// A request, a connection or a first state that takes longer failed.
const PATIENCE: Duration = Duration::from_secs(30);

/// What all bots saw.
#[derive(Debug, Default)]
struct Tally {
    round_trips: Vec<Duration>,
    /// The round trips of the players on the node that created their game
    /// (`[0]`) and on another node (`[1]`); with one node, all in `[0]`.
    by_node: [Vec<Duration>; 2],
    /// When each acknowledged move was sent, with its round trip.
    timeline: Vec<(Instant, Duration)>,
    errors: usize,
    /// The errors by code.
    error_codes: HashMap<String, usize>,
    /// Acknowledged moves: game id → ply → notation.
    acked: HashMap<String, HashMap<usize, String>>,
    /// Every move sent, acknowledged or not: game id → (ply, notation).
    sent: HashMap<String, HashSet<(usize, String)>>,
}

type Socket = WebSocketStream<MaybeTlsStream<tokio::net::TcpStream>>;

/// Opens a WebSocket with a small read buffer (the protocol's messages are
/// a few KiB; the default buffer, 128 KiB, would make the client's memory
/// the limit on how many sockets it holds).
async fn connect(url: String) -> anyhow::Result<Socket> {
    let config = WebSocketConfig::default().read_buffer_size(16 * 1024);
    let (ws, _) = connect_async_with_config(url, Some(config), false).await?;
    Ok(ws)
}

/// A random legal move of the state.
fn choose(state: &Value, rng: &mut SmallRng) -> Option<String> {
    palabre_server::bots::move_from_state(state, rng.r#gen::<u32>() as usize)
}

async fn post(
    http: &reqwest::Client,
    addr: &str,
    path: &str,
    body: Value,
) -> anyhow::Result<Value> {
    let res = http
        .post(format!("http://{addr}{path}"))
        .json(&body)
        .send()
        .await?;
    let status = res.status();
    let v: Value = res.json().await?;
    if !status.is_success() {
        bail!("{path}: {status} {v}");
    }
    Ok(v)
}

/// A bot's place in a game, and the node it talks to.
#[derive(Debug, Clone)]
struct Place {
    id: String,
    seat: String,
    side: String,
    addr: String,
    /// Its node is not the one that created the game.
    remote: bool,
}

/// One bot: plays its side whenever the hand is its own, until `end`.
async fn bot(
    place: Place,
    think: Duration,
    end: Instant,
    tally: Arc<Mutex<Tally>>,
    seed: u64,
) -> anyhow::Result<()> {
    let Place {
        id,
        seat,
        side,
        addr,
        remote,
    } = place;
    let mut ws = connect(format!("ws://{addr}/api/games/{id}/ws")).await?;
    ws.send(Message::text(
        json!({"type": "hello", "seat": seat, "ply": 0}).to_string(),
    ))
    .await?;
    let mut rng = SmallRng::seed_from_u64(seed);
    let mut pending: Option<(usize, String, Instant)> = None;
    while Instant::now() < end {
        let Ok(Some(msg)) =
            tokio::time::timeout(end.saturating_duration_since(Instant::now()), ws.next()).await
        else {
            break;
        };
        let Message::Text(text) = msg? else { continue };
        let m: Value = serde_json::from_str(&text)?;
        match m["type"].as_str() {
            Some("ack") => {
                if let Some((ply, notation, sent)) = pending.take() {
                    let mut t = tally.lock().await;
                    let took = sent.elapsed();
                    t.round_trips.push(took);
                    t.by_node[usize::from(remote)].push(took);
                    t.timeline.push((sent, took));
                    t.acked.entry(id.clone()).or_default().insert(ply, notation);
                }
            }
            Some("error") => {
                let code = m["code"]
                    .as_str()
                    .or(m["error"]["code"].as_str())
                    .unwrap_or("unknown");
                let mut t = tally.lock().await;
                t.errors += 1;
                *t.error_codes.entry(code.to_owned()).or_default() += 1;
                pending = None;
            }
            Some("state") => {
                let s = &m["state"];
                if !s["result"].is_null() {
                    break;
                }
                let mine = s["next_hand"]["side"] == side.as_str() && s["status"] == "playing";
                if mine && pending.is_none() {
                    let ply = s["ply"].as_u64().unwrap_or(0) as usize;
                    let Some(notation) = choose(s, &mut rng) else {
                        continue;
                    };
                    tokio::time::sleep(think).await;
                    pending = Some((ply, notation.clone(), Instant::now()));
                    tally
                        .lock()
                        .await
                        .sent
                        .entry(id.clone())
                        .or_default()
                        .insert((ply, notation.clone()));
                    ws.send(Message::text(
                        json!({"type": "move", "move": notation, "ply": ply}).to_string(),
                    ))
                    .await?;
                }
            }
            _ => {}
        }
    }
    let _ = ws.close(None).await;
    Ok(())
}

/// Plays games in one slot, one after another, until `end`, the first one
/// after `delay`. Slot `index` creates its games on node `index mod n` and
/// joins them from the next node.
async fn slot(
    http: reqwest::Client,
    index: usize,
    settings: Arc<Settings>,
    delay: Duration,
    end: Instant,
    tally: Arc<Mutex<Tally>>,
) -> anyhow::Result<()> {
    let nodes = nodes(&settings.addr)?;
    let n = nodes.len();
    let (creator, joiner) = (node_of(index, 0, n), node_of(index, 1, n));
    tokio::time::sleep(delay).await;
    let mut round = 0u64;
    while Instant::now() < end {
        let game = if index.is_multiple_of(2) {
            json!({"game": "yote"})
        } else {
            json!({"game": "nsolo", "size": 8})
        };
        let mut body = game;
        body["opponent"] = json!("online");
        body["name"] = json!(format!("bot{index}a"));
        let created = post(&http, &nodes[creator], "/api/games", body).await?;
        let id = created["id"].as_str().context("id")?.to_owned();
        let joined = post(
            &http,
            &nodes[joiner],
            &format!("/api/games/{id}/join"),
            json!({"name": format!("bot{index}b")}),
        )
        .await?;
        let seed = (index as u64) << 20 | round;
        let place = |v: &Value, node: usize| -> anyhow::Result<Place> {
            Ok(Place {
                id: id.clone(),
                seat: v["seat"].as_str().context("seat")?.to_owned(),
                side: v["side"].as_str().context("side")?.to_owned(),
                addr: nodes[node].clone(),
                remote: node != creator,
            })
        };
        let a = bot(
            place(&created, creator)?,
            settings.think,
            end,
            Arc::clone(&tally),
            seed,
        );
        let b = bot(
            place(&joined, joiner)?,
            settings.think,
            end,
            Arc::clone(&tally),
            seed ^ 1,
        );
        let (ra, rb) = tokio::join!(a, b);
        ra?;
        rb?;
        round += 1;
    }
    Ok(())
}

/// Counts, for one game, the acknowledged moves the store lost or changed
/// (`missing`) and the stored moves that are extra copies (`doubled`): a
/// ply stored more than once, or a stored move that no bot sent at that ply
/// (a move stored twice lands on the next ply).
pub fn compare(
    acked: &HashMap<usize, String>,
    sent: &HashSet<(usize, String)>,
    stored: &[(usize, String)],
) -> (usize, usize) {
    let mut at: HashMap<usize, Vec<&str>> = HashMap::new();
    for (ply, notation) in stored {
        at.entry(*ply).or_default().push(notation);
    }
    let missing = acked
        .iter()
        .filter(|(ply, n)| at.get(ply).is_none_or(|v| !v.contains(&n.as_str())))
        .count();
    let repeated: usize = at.values().map(|v| v.len() - 1).sum();
    let unsent = stored
        .iter()
        .filter(|(ply, n)| !sent.contains(&(*ply, n.clone())))
        .count();
    (missing, repeated + unsent)
}

/// Compares the acknowledged moves with the database's.
/// `db` is what the server's `--db` was: a SQLite file or a `postgres://`
/// URL (the one database of every node of a cluster).
async fn check(db: &str, t: &Tally) -> anyhow::Result<(usize, usize)> {
    let store = palabre_server::store::Store::open(db)
        .await
        .with_context(|| format!("opening the database {db}"))?;
    let (mut missing, mut doubled) = (0, 0);
    let empty = HashSet::new();
    for (id, acked) in &t.acked {
        let stored = store.moves(id).await?;
        let (m, d) = compare(acked, t.sent.get(id).unwrap_or(&empty), &stored);
        missing += m;
        doubled += d;
    }
    store.close().await;
    Ok((missing, doubled))
}

/// Seconds a line of the round trips over time covers.
const WINDOW_S: u64 = 10;

/// The round trips' p50 and p99 in each window of `WINDOW_S` seconds.
fn windows(started: Instant, timeline: &[(Instant, Duration)]) -> Vec<String> {
    let mut by: Vec<Vec<Duration>> = Vec::new();
    for (sent, took) in timeline {
        let w = (sent.saturating_duration_since(started).as_secs() / WINDOW_S) as usize;
        if by.len() <= w {
            by.resize_with(w + 1, Vec::new);
        }
        by[w].push(*took);
    }
    by.iter_mut()
        .enumerate()
        .map(|(w, v)| {
            v.sort();
            let from = w as u64 * WINDOW_S;
            format!(
                "{from:>4}-{:<4} s: p50 {:>8.1} ms, p99 {:>8.1} ms, {} moves",
                from + WINDOW_S,
                percentile(v, 0.5).as_secs_f64() * 1e3,
                percentile(v, 0.99).as_secs_f64() * 1e3,
                v.len()
            )
        })
        .collect()
}

fn percentile(sorted: &[Duration], p: f64) -> Duration {
    sorted
        .get(((sorted.len().max(1) - 1) as f64 * p).round() as usize)
        .copied()
        .unwrap_or_default()
}

/// The client's own CPU time so far (user + system), from `/proc`.
fn own_cpu() -> Option<Duration> {
    let stat = std::fs::read_to_string("/proc/self/stat").ok()?;
    // Fields after the command name, which is in parentheses.
    let fields: Vec<&str> = stat.rsplit_once(')')?.1.split_whitespace().collect();
    let ticks: u64 = fields.get(11)?.parse::<u64>().ok()? + fields.get(12)?.parse::<u64>().ok()?;
    // Linux reports these in USER_HZ, 100 a second.
    Some(Duration::from_millis(ticks * 10))
}

/// Says how much of a core the client used since `since` (CPU time then).
fn client_load(since: Option<Duration>, elapsed: Duration) -> String {
    match (since, own_cpu()) {
        (Some(a), Some(b)) => format!(
            "client CPU {:.1} s over {:.0} s ({:.2} cores of {})",
            (b - a).as_secs_f64(),
            elapsed.as_secs_f64(),
            (b - a).as_secs_f64() / elapsed.as_secs_f64(),
            std::thread::available_parallelism().map_or(0, |n| n.get()),
        ),
        _ => "client CPU unknown".to_owned(),
    }
}

fn http_client() -> anyhow::Result<reqwest::Client> {
    Ok(reqwest::Client::builder().timeout(PATIENCE).build()?)
}

/// What `GET /api/status` tells.
#[derive(Debug, Clone, Copy, Default)]
struct ServerStatus {
    games_in_memory: u64,
    sockets: u64,
    resident_bytes: Option<u64>,
    searches_queued: (u64, u64),
}

async fn server_status(http: &reqwest::Client, addr: &str) -> anyhow::Result<ServerStatus> {
    let v: Value = http
        .get(format!("http://{addr}/api/status"))
        .send()
        .await?
        .error_for_status()?
        .json()
        .await?;
    Ok(ServerStatus {
        games_in_memory: v["games_in_memory"].as_u64().context("games_in_memory")?,
        sockets: v["sockets"].as_u64().context("sockets")?,
        resident_bytes: v["resident_bytes"].as_u64(),
        searches_queued: (
            v["searches_queued"]["quick"].as_u64().unwrap_or(0),
            v["searches_queued"]["deep"].as_u64().unwrap_or(0),
        ),
    })
}

/// The status of every node, and their sum.
#[derive(Debug, Clone, Default)]
struct Servers {
    total: ServerStatus,
    each: Vec<(String, ServerStatus)>,
}

impl Servers {
    fn of(each: Vec<(String, ServerStatus)>) -> Servers {
        let mut total = ServerStatus {
            resident_bytes: Some(0),
            ..ServerStatus::default()
        };
        for (_, s) in &each {
            total.games_in_memory += s.games_in_memory;
            total.sockets += s.sockets;
            total.resident_bytes = total
                .resident_bytes
                .zip(s.resident_bytes)
                .map(|(a, b)| a + b);
            total.searches_queued.0 += s.searches_queued.0;
            total.searches_queued.1 += s.searches_queued.1;
        }
        Servers { total, each }
    }
}

/// `GET /api/status` of every node.
async fn servers_status(http: &reqwest::Client, nodes: &[String]) -> anyhow::Result<Servers> {
    let mut each = Vec::with_capacity(nodes.len());
    for addr in nodes {
        let s = server_status(http, addr)
            .await
            .with_context(|| format!("status of {addr}"))?;
        each.push((addr.clone(), s));
    }
    Ok(Servers::of(each))
}

fn mib(bytes: Option<u64>) -> String {
    bytes.map_or("unknown".to_owned(), |b| {
        format!("{:.1} MiB", b as f64 / 1_048_576.0)
    })
}

/// `b - a` in MiB, signed.
fn mib_change(a: Option<u64>, b: Option<u64>) -> String {
    match (a, b) {
        (Some(a), Some(b)) => format!("{:+.1} MiB", (b as f64 - a as f64) / 1_048_576.0),
        _ => "unknown".to_owned(),
    }
}

/// `(b - a) / n` in KiB.
fn kib_each(a: Option<u64>, b: Option<u64>, n: usize) -> String {
    match (a, b) {
        (Some(a), Some(b)) if n > 0 => {
            format!("{:.1} KiB", (b as f64 - a as f64) / 1024.0 / n as f64)
        }
        _ => "unknown".to_owned(),
    }
}

fn status_line(s: &ServerStatus) -> String {
    format!(
        "games in memory {}, sockets {}, searches queued {}+{}, resident {}",
        s.games_in_memory,
        s.sockets,
        s.searches_queued.0,
        s.searches_queued.1,
        mib(s.resident_bytes)
    )
}

/// Prints the servers' figures: the sum, then each node's when there are
/// several.
fn show(label: &str, s: &Servers) {
    if s.each.len() > 1 {
        println!(
            "{label} ({} nodes together): {}",
            s.each.len(),
            status_line(&s.total)
        );
        for (addr, one) in &s.each {
            println!("  {addr}: {}", status_line(one));
        }
    } else {
        println!("{label}: {}", status_line(&s.total));
    }
}

pub fn run(settings: Settings) -> anyhow::Result<()> {
    let runtime = tokio::runtime::Runtime::new()?;
    runtime.block_on(async move {
        match settings.mode {
            Mode::Play => play(settings).await,
            Mode::IdleGames => idle_games(settings).await,
            Mode::IdleSockets => idle_sockets(settings).await,
        }
    })
}

async fn play(settings: Settings) -> anyhow::Result<()> {
    let nodes = nodes(&settings.addr)?;
    if nodes.len() > 1 {
        println!(
            "{} nodes: games created round-robin, the two players of a game on different nodes",
            nodes.len()
        );
    }
    let settings = Arc::new(settings);
    let http = http_client()?;
    let tally = Arc::new(Mutex::new(Tally::default()));
    let cpu = own_cpu();
    let started = Instant::now();
    let end = started + settings.duration;
    let games = settings.games.max(1);
    let slots: Vec<_> = (0..settings.games)
        .map(|i| {
            tokio::spawn(slot(
                http.clone(),
                i,
                Arc::clone(&settings),
                settings.ramp.mul_f64(i as f64 / games as f64),
                end,
                Arc::clone(&tally),
            ))
        })
        .collect();
    let mut failures = 0;
    for s in slots {
        if let Ok(Err(e)) | Err(e) = s.await.map_err(anyhow::Error::from) {
            failures += 1;
            eprintln!("loadtest: a game slot failed: {e:#}");
        }
    }
    let elapsed = started.elapsed();
    let mut t = tally.lock().await;
    t.round_trips.sort();
    for v in &mut t.by_node {
        v.sort();
    }
    let n = t.round_trips.len();
    println!(
        "games {} for {:.0} s, {} moves acknowledged, {:.0} moves/s",
        settings.games,
        elapsed.as_secs_f64(),
        n,
        n as f64 / elapsed.as_secs_f64()
    );
    println!(
        "round trip: p50 {:?}, p90 {:?}, p99 {:?}, max {:?}",
        percentile(&t.round_trips, 0.5),
        percentile(&t.round_trips, 0.9),
        percentile(&t.round_trips, 0.99),
        percentile(&t.round_trips, 1.0)
    );
    if nodes.len() > 1 {
        for (v, whose) in t.by_node.iter().zip(["the creating node", "another node"]) {
            println!(
                "  players on {whose}: {} moves, p50 {:?}, p99 {:?}",
                v.len(),
                percentile(v, 0.5),
                percentile(v, 0.99)
            );
        }
    }
    println!("round trip by {WINDOW_S} s window (p50/p99 moves):");
    for line in windows(started, &t.timeline) {
        println!("  {line}");
    }
    let mut codes: Vec<String> = t
        .error_codes
        .iter()
        .map(|(code, n)| format!("{code} {n}"))
        .collect();
    codes.sort();
    if codes.is_empty() {
        println!("errors {}, failed slots {failures}", t.errors);
    } else {
        println!(
            "errors {} ({}), failed slots {failures}",
            t.errors,
            codes.join(", ")
        );
    }
    println!("{}", client_load(cpu, elapsed));
    // The bots have closed their sockets: give the server a moment to see it.
    let waiting = Instant::now();
    loop {
        match servers_status(&http, &nodes).await {
            Ok(s) if s.total.sockets > 0 && waiting.elapsed() < Duration::from_secs(5) => {
                tokio::time::sleep(Duration::from_millis(200)).await;
            }
            Ok(s) => break show("server after", &s),
            Err(e) => break println!("server after: no status ({e:#})"),
        }
    }
    match &settings.db {
        Some(db) => {
            let (missing, doubled) = check(db, &t).await?;
            println!("database: {missing} acknowledged moves missing, {doubled} doubled");
            if missing + doubled > 0 {
                bail!("the database lost or doubled acknowledged moves");
            }
        }
        None => println!("database: not checked (pass --db FILE or --db postgres://…)"),
    }
    Ok(())
}

/// Creates game `i` (Yoté or Nsolo, on one screen) and returns its id.
async fn create_local(http: &reqwest::Client, addr: &str, i: usize) -> anyhow::Result<String> {
    let body = if i.is_multiple_of(2) {
        json!({"game": "yote", "opponent": "local"})
    } else {
        json!({"game": "nsolo", "size": 8, "opponent": "local"})
    };
    let created = post(http, addr, "/api/games", body).await?;
    Ok(created["id"].as_str().context("id")?.to_owned())
}

/// Creates game `i` and reads it once.
async fn create_and_read(http: &reqwest::Client, addr: &str, i: usize) -> anyhow::Result<()> {
    let id = create_local(http, addr, i).await?;
    let res = http
        .get(format!("http://{addr}/api/games/{id}"))
        .send()
        .await?;
    let status = res.status();
    let v: Value = res.json().await?;
    if !status.is_success() || v["ply"].is_null() {
        bail!("GET /api/games/{id}: {status} {v}");
    }
    Ok(())
}

async fn idle_games(settings: Settings) -> anyhow::Result<()> {
    let nodes = nodes(&settings.addr)?;
    let n = nodes.len();
    let http = http_client()?;
    let before = servers_status(&http, &nodes).await?;
    show("before", &before);
    if before.total.games_in_memory > 0 {
        println!("note: the server already holds games; their memory counts in what follows");
    }
    if n > 1 {
        println!("{n} nodes: game i created and read on node i mod {n}");
    }
    for round in 1..=settings.rounds.max(1) {
        let start = servers_status(&http, &nodes).await?;
        let started = Instant::now();
        let results: Vec<anyhow::Result<()>> = stream::iter(0..settings.games)
            .map(|i| {
                let http = &http;
                let addr = nodes[node_of(i, 0, n)].as_str();
                async move { create_and_read(http, addr, i).await }
            })
            .buffer_unordered(CONCURRENCY)
            .collect()
            .await;
        let took = started.elapsed();
        let failed: Vec<&anyhow::Error> = results.iter().filter_map(|r| r.as_ref().err()).collect();
        let made = results.len() - failed.len();
        if let Some(e) = failed.first() {
            eprintln!("loadtest: {} games failed, the first: {e:#}", failed.len());
        }
        println!(
            "round {round}: {made} games created and read in {:.1} s ({:.0} a second), {} failed",
            took.as_secs_f64(),
            made as f64 / took.as_secs_f64(),
            failed.len()
        );
        let created = servers_status(&http, &nodes).await?;
        show("after creating", &created);
        let start = start.total;
        println!(
            "memory for the games: {} ({} a game)",
            mib_change(start.resident_bytes, created.total.resident_bytes),
            kib_each(start.resident_bytes, created.total.resident_bytes, made)
        );
        let waiting = Instant::now();
        let mut after = created;
        while after.total.games_in_memory > before.total.games_in_memory
            && waiting.elapsed() < settings.wait
        {
            tokio::time::sleep(Duration::from_millis(500)).await;
            after = servers_status(&http, &nodes).await?;
        }
        show("after eviction", &after);
        let after = after.total;
        if after.games_in_memory > before.total.games_in_memory {
            println!(
                "eviction: {} games still in memory after {:.0} s (is the server's \
                 --idle-game short?)",
                after.games_in_memory,
                settings.wait.as_secs_f64()
            );
        } else {
            println!(
                "eviction: every game left memory {:.1} s after the last was read",
                waiting.elapsed().as_secs_f64()
            );
        }
        println!(
            "memory kept after eviction: {} against the start of the round, {} against \
             before the first",
            mib_change(start.resident_bytes, after.resident_bytes),
            mib_change(before.total.resident_bytes, after.resident_bytes)
        );
    }
    Ok(())
}

/// Opens a spectator WebSocket on game `id` and waits for its first state.
async fn spectate(addr: &str, id: &str) -> anyhow::Result<Socket> {
    let mut ws = connect(format!("ws://{addr}/api/games/{id}/ws")).await?;
    ws.send(Message::text(json!({"type": "hello"}).to_string()))
        .await?;
    loop {
        let Message::Text(text) = ws.next().await.context("closed before a state")?? else {
            continue;
        };
        let m: Value = serde_json::from_str(&text)?;
        match m["type"].as_str() {
            Some("state") => return Ok(ws),
            Some("error") => bail!("refused: {m}"),
            _ => {}
        }
    }
}

/// How the idle sockets fared.
#[derive(Debug, Default)]
struct Held {
    /// Closed by the server (or the network) while they should have stayed.
    dropped: AtomicUsize,
    /// Pings from the server, answered.
    pings: AtomicUsize,
    /// Messages other than pings while idle.
    messages: AtomicUsize,
}

/// Keeps a socket open, reading (which answers pings), until told to close.
async fn hold(mut ws: Socket, mut stop: watch::Receiver<bool>, held: Arc<Held>) {
    loop {
        tokio::select! {
            _ = stop.changed() => break,
            message = ws.next() => match message {
                Some(Ok(Message::Ping(_))) => {
                    held.pings.fetch_add(1, Ordering::Relaxed);
                }
                Some(Ok(Message::Close(_)) | Err(_)) | None => {
                    held.dropped.fetch_add(1, Ordering::Relaxed);
                    return;
                }
                Some(Ok(_)) => {
                    held.messages.fetch_add(1, Ordering::Relaxed);
                }
            },
        }
    }
    let _ = tokio::time::timeout(Duration::from_secs(5), async {
        let _ = ws.close(None).await;
        while let Some(Ok(_)) = ws.next().await {}
    })
    .await;
}

/// The node of idle socket `i` among `n`, watching game `i mod games`
/// (created on node `(i mod games) mod n`): the first round of sockets on
/// each game's own node, the next ones shifted by one node each round, so
/// that with several nodes most watch a game from another node.
fn socket_node(i: usize, games: usize, n: usize) -> usize {
    (i % games + i / games) % n
}

async fn idle_sockets(settings: Settings) -> anyhow::Result<()> {
    let nodes = nodes(&settings.addr)?;
    let n = nodes.len();
    let http = http_client()?;
    let mut ids = Vec::new();
    for i in 0..WATCHED_GAMES.min(settings.sockets.max(1)) {
        ids.push(create_local(&http, &nodes[node_of(i, 0, n)], i).await?);
    }
    if n > 1 {
        println!("{n} nodes: games created round-robin, the sockets spread over the nodes");
    }
    let before = servers_status(&http, &nodes).await?;
    show(&format!("before (with {} games)", ids.len()), &before);
    let before = before.total;
    let client_before = palabre_server::status::resident_bytes();
    let held = Arc::new(Held::default());
    let (stop, stopped) = watch::channel(false);
    let started = Instant::now();
    let opened: Vec<anyhow::Result<tokio::task::JoinHandle<()>>> =
        stream::iter(0..settings.sockets)
            .map(|i| {
                let id = ids[i % ids.len()].clone();
                let addr = nodes[socket_node(i, ids.len(), n)].as_str();
                let stopped = stopped.clone();
                let held = Arc::clone(&held);
                async move {
                    let ws = tokio::time::timeout(PATIENCE, spectate(addr, &id))
                        .await
                        .context("no state in time")??;
                    Ok(tokio::spawn(hold(ws, stopped, held)))
                }
            })
            .buffer_unordered(CONCURRENCY)
            .collect()
            .await;
    let took = started.elapsed();
    let mut holders = Vec::new();
    let mut failed = 0;
    for o in opened {
        match o {
            Ok(h) => holders.push(h),
            Err(e) => {
                if failed == 0 {
                    eprintln!("loadtest: a socket failed: {e:#}");
                }
                failed += 1;
            }
        }
    }
    let open = holders.len();
    println!(
        "{open} sockets open in {:.1} s ({:.0} a second), {failed} failed",
        took.as_secs_f64(),
        open as f64 / took.as_secs_f64()
    );
    let now = servers_status(&http, &nodes).await?;
    show("sockets open", &now);
    let now = now.total;
    println!(
        "server memory for the sockets: {} ({} a socket)",
        mib_change(before.resident_bytes, now.resident_bytes),
        kib_each(before.resident_bytes, now.resident_bytes, open)
    );
    let client_now = palabre_server::status::resident_bytes();
    println!(
        "client memory for the sockets: {} ({} a socket)",
        mib_change(client_before, client_now),
        kib_each(client_before, client_now, open)
    );
    println!(
        "holding them idle for {:.0} s",
        settings.duration.as_secs_f64()
    );
    tokio::time::sleep(settings.duration).await;
    let idle = servers_status(&http, &nodes).await?;
    show("after holding", &idle);
    println!(
        "while idle: {} pings answered, {} other messages, {} sockets closed by the server",
        held.pings.load(Ordering::Relaxed),
        held.messages.load(Ordering::Relaxed),
        held.dropped.load(Ordering::Relaxed)
    );
    let _ = stop.send(true);
    for h in holders {
        let _ = h.await;
    }
    let waiting = Instant::now();
    let mut closed = servers_status(&http, &nodes).await?;
    while closed.total.sockets > before.sockets && waiting.elapsed() < Duration::from_secs(10) {
        tokio::time::sleep(Duration::from_millis(200)).await;
        closed = servers_status(&http, &nodes).await?;
    }
    show("after closing", &closed);
    if closed.total.sockets > before.sockets {
        bail!(
            "the server still counts {} sockets 10 s after every one closed",
            closed.total.sockets
        );
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn addresses_spread_over_the_nodes() {
        assert_eq!(nodes("127.0.0.1:8080").unwrap(), ["127.0.0.1:8080"]);
        assert_eq!(nodes(" a:1, b:2 ,c:3,").unwrap(), ["a:1", "b:2", "c:3"]);
        assert!(nodes(" , ").is_err());
        // One node: everything on it.
        assert_eq!((node_of(5, 0, 1), node_of(5, 1, 1)), (0, 0));
        // Games round-robin, the two players of a game on different nodes.
        for n in 2..=4 {
            let creators: Vec<usize> = (0..n).map(|i| node_of(i, 0, n)).collect();
            assert_eq!(creators, (0..n).collect::<Vec<_>>());
            assert!((0..10).all(|i| node_of(i, 0, n) != node_of(i, 1, n)));
        }
        // Sockets: the first round on the games' own nodes, then shifted.
        assert_eq!(socket_node(3, 10, 2), 1);
        assert_eq!(socket_node(13, 10, 2), 0);
        assert_eq!(socket_node(5, 10, 1), 0);
    }

    #[test]
    fn the_check_counts_lost_and_doubled_moves() {
        let acked: HashMap<usize, String> = [(0, "c3".to_owned()), (1, "d4".to_owned())].into();
        let sent: HashSet<(usize, String)> = [(0, "c3".to_owned()), (1, "d4".to_owned())].into();
        let good = [(0, "c3".to_owned()), (1, "d4".to_owned())];
        assert_eq!(compare(&acked, &sent, &good), (0, 0));
        // d4 stored again at ply 2: doubled, not missing.
        let twice = [
            (0, "c3".to_owned()),
            (1, "d4".to_owned()),
            (2, "d4".to_owned()),
        ];
        assert_eq!(compare(&acked, &sent, &twice), (0, 1));
        // The same ply twice (a store without a key on plies).
        let same_ply = [
            (0, "c3".to_owned()),
            (0, "c3".to_owned()),
            (1, "d4".to_owned()),
        ];
        assert_eq!(compare(&acked, &sent, &same_ply), (0, 1));
        // d4 lost.
        assert_eq!(compare(&acked, &sent, &good[..1]), (1, 0));
    }
}
