//! The lists on a big database: a SQLite file with 100,000 stored games
//! (mostly finished games of every kind, with results and move counts, plus
//! online games waiting or being played, with their seats), then
//! `GET /api/lobby` and `GET /api/records` through the router, a few hundred
//! times each. Prints the query plans and p50/p99 per endpoint.
//!
//! `LISTINGS_GAMES` and `LISTINGS_REQUESTS` change the sizes;
//! `LISTINGS_DB=FILE` builds the database there (a new file) and keeps it;
//! `LISTINGS_ANALYZE=1` runs `ANALYZE` first (the server itself never does);
//! `LISTINGS_SQL='CREATE INDEX …'` runs that SQL on the filled database
//! before the plans are shown and the lists timed (to try an index).

use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

use axum::body::Body;
use axum::http::{Request, StatusCode};
use http_body_util::BodyExt;
use palabre_ai::Level;
use palabre_rules::{nsolo, yote};
use palabre_server::store::Store;
use palabre_server::{AppState, Config, app};
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};
use serde_json::Value;
use sqlx::Row;
use tower::ServiceExt;

/// Games stored, and their mix.
const GAMES: usize = 100_000;
/// Online games waiting for a player (one seat).
const WAITING_SHARE: f64 = 0.02;
/// Online games being played (two seats).
const PLAYING_ONLINE_SHARE: f64 = 0.02;
/// Games against the machine or on one screen still being played.
const PLAYING_OTHER_SHARE: f64 = 0.04;
/// Rows a transaction inserts.
const BATCH: usize = 5_000;
/// Requests timed per endpoint.
const REQUESTS: usize = 300;

/// The lobby as one scan over both statuses (the store's former query),
/// timed beside the store's own for comparison.
const LOBBY_SQL: &str = "SELECT id, game, size, opponent, human, time_control, team_size, \
    status, ply, result_winner, result_reason, finished_at FROM games \
    WHERE opponent = 'online' AND status IN ('waiting', 'playing') \
    ORDER BY created_at DESC, id LIMIT 200";
const RECORDS_SQL: &str = "SELECT id, game, size, opponent, human, time_control, team_size, \
    status, ply, result_winner, result_reason, finished_at FROM games \
    WHERE status = 'finished' ORDER BY finished_at DESC, id LIMIT 200";
/// The lobby as `store.rs` asks it: one status at a time, so that
/// `games_open` (status, created_at) gives the order and the `LIMIT` stops
/// each scan early.
const LOBBY_BY_STATUS_SQL: &str = "SELECT * FROM (SELECT id, game, size, opponent, human, \
    time_control, team_size, status, ply, result_winner, result_reason, finished_at, created_at \
    FROM games WHERE opponent = 'online' AND status = 'waiting' ORDER BY created_at DESC LIMIT 200) \
    UNION ALL \
    SELECT * FROM (SELECT id, game, size, opponent, human, time_control, team_size, status, \
    ply, result_winner, result_reason, finished_at, created_at FROM games \
    WHERE opponent = 'online' AND status = 'playing' ORDER BY created_at DESC LIMIT 200) \
    ORDER BY created_at DESC, id LIMIT 200";
const SEATS_SQL: &str = "SELECT game_id, side, position, name, seat_hash FROM seats \
    WHERE game_id IN ('000000000001', '000000000002') ORDER BY game_id, side, position";

fn env_or(name: &str, default: usize) -> usize {
    std::env::var(name)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

fn now_s() -> i64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_secs() as i64)
}

/// What a stored game is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Kind {
    Finished,
    Waiting,
    PlayingOnline,
    PlayingOther,
}

fn kind_of(rng: &mut SmallRng) -> Kind {
    let x: f64 = rng.r#gen();
    if x < WAITING_SHARE {
        Kind::Waiting
    } else if x < WAITING_SHARE + PLAYING_ONLINE_SHARE {
        Kind::PlayingOnline
    } else if x < WAITING_SHARE + PLAYING_ONLINE_SHARE + PLAYING_OTHER_SHARE {
        Kind::PlayingOther
    } else {
        Kind::Finished
    }
}

/// Counts of what was stored.
#[derive(Debug, Default)]
struct Stored {
    finished: usize,
    waiting: usize,
    playing_online: usize,
    playing_other: usize,
    seats: usize,
}

/// One stored game, made up.
#[derive(Debug)]
struct Spec {
    id: String,
    kind: Kind,
    game: &'static str,
    size: u8,
    fen: usize,
    opponent: &'static str,
    level: usize,
    human: Option<&'static str>,
    team_size: u8,
    time_control: &'static str,
    created_at: i64,
    status: &'static str,
    ply: i64,
    started_at_ms: Option<i64>,
    winner: Option<&'static str>,
    reason: Option<&'static str>,
    finished_at: Option<i64>,
    /// Names in the seats table, in order of joining (sides alternate).
    members: Vec<String>,
    sides: [&'static str; 2],
}

const YOTE_REASONS: [&str; 5] = [
    "all-captured",
    "no-stones",
    "resignation",
    "timeout",
    "agreement",
];
const NSOLO_REASONS: [&str; 7] = [
    "ndar-kepp",
    "no-move",
    "quiet-moves",
    "repetition",
    "resignation",
    "agreement",
    "aborted",
];
const TIME_CONTROLS: [&str; 7] = ["none", "none", "none", "5+3", "10+5", "1d", "3d"];
/// Nsolo sizes, the usual one most often.
const NSOLO_SIZES: [u8; 5] = [8, 8, 8, 10, 12];

fn spec(rng: &mut SmallRng, now: i64) -> Spec {
    let year = 365 * 24 * 3600;
    let kind = kind_of(rng);
    let yote = rng.gen_bool(0.5);
    let (game, size, fen, sides) = if yote {
        ("yote", 5u8, 0, ["red", "black"])
    } else {
        let f = rng.gen_range(0..NSOLO_SIZES.len());
        ("nsolo", NSOLO_SIZES[f], 1 + f, ["south", "north"])
    };
    let opponent = match kind {
        Kind::Waiting | Kind::PlayingOnline => "online",
        Kind::PlayingOther => ["machine", "local"][rng.gen_range(0..2)],
        Kind::Finished => ["machine", "machine", "local", "online", "online"][rng.gen_range(0..5)],
    };
    let online = opponent == "online";
    let human = (opponent == "machine").then(|| sides[rng.gen_range(0..2)]);
    let team_size: u8 = if online && !yote && rng.gen_bool(0.1) {
        2
    } else {
        1
    };
    let time_control = if online {
        TIME_CONTROLS[rng.gen_range(0..TIME_CONTROLS.len())]
    } else {
        "none"
    };
    // Within the year, recent games more often than old ones.
    let age = (rng.r#gen::<f64>().powi(2) * f64::from(year)) as i64;
    let (created_at, status, ply, started_at_ms) = match kind {
        Kind::Waiting => (now - rng.gen_range(0..3600), "waiting", 0i64, None),
        Kind::PlayingOnline => {
            let c = now - rng.gen_range(0..7200);
            (c, "playing", rng.gen_range(0..80), Some(c * 1000 + 5_000))
        }
        // Abandoned games against the machine or on one screen stay "playing".
        Kind::PlayingOther => (
            now - age,
            "playing",
            rng.gen_range(0..80),
            Some((now - age) * 1000),
        ),
        Kind::Finished => (
            now - age,
            "finished",
            rng.gen_range(1..150),
            Some((now - age) * 1000 + 5_000),
        ),
    };
    let (winner, reason, finished_at) = if kind == Kind::Finished {
        let reason = if yote {
            YOTE_REASONS[rng.gen_range(0..YOTE_REASONS.len())]
        } else {
            NSOLO_REASONS[rng.gen_range(0..NSOLO_REASONS.len())]
        };
        let winner = match reason {
            "agreement" | "quiet-moves" | "repetition" | "aborted" => None,
            _ => Some(sides[rng.gen_range(0..2)]),
        };
        (winner, Some(reason), Some(created_at + ply * 20 + 30))
    } else {
        (None, None, None)
    };
    // Seats of online games: the creator, and everybody once playing.
    let members = match (online, kind) {
        (false, _) => 0,
        (true, Kind::Waiting) => 1,
        (true, _) => 2 * team_size,
    };
    Spec {
        id: format!("{:012x}", rng.r#gen::<u64>() >> 16),
        kind,
        game,
        size,
        fen,
        opponent,
        level: rng.gen_range(0..Level::ALL.len()),
        human,
        team_size,
        time_control,
        created_at,
        status,
        ply,
        started_at_ms,
        winner,
        reason,
        finished_at,
        members: (0..members)
            .map(|_| format!("joueur{}", rng.gen_range(0..20_000)))
            .collect(),
        sides,
    }
}

/// Fills the games and seats tables with `n` games, in the order they were
/// created (as a server would have), `BATCH` a transaction.
async fn fill(store: &Store, n: usize) -> Stored {
    let mut rng = SmallRng::seed_from_u64(7);
    let mut fens = vec![yote::Position::START.to_string()];
    fens.extend(
        NSOLO_SIZES
            .iter()
            .map(|&s| nsolo::Position::start(s).unwrap().to_string()),
    );
    let levels: Vec<String> = Level::ALL.iter().map(ToString::to_string).collect();
    let now = now_s();
    let mut specs: Vec<Spec> = (0..n).map(|_| spec(&mut rng, now)).collect();
    specs.sort_by_key(|s| s.created_at);
    specs.dedup_by(|a, b| a.id == b.id);
    let mut stored = Stored::default();
    for batch in specs.chunks(BATCH) {
        let mut tx = store.pool().begin().await.unwrap();
        for g in batch {
            sqlx::query(
                "INSERT INTO games (id, game, size, start_fen, opponent, level, human, \
                 seat_hash, team_size, time_control, started_at_ms, created_at, updated_at, \
                 status, ply, machine_due, deadline_ms, result_winner, result_reason, \
                 finished_at) \
                 VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 0, NULL, ?, ?, ?)",
            )
            .bind(&g.id)
            .bind(g.game)
            .bind(i64::from(g.size))
            .bind(&fens[g.fen])
            .bind(g.opponent)
            .bind(&levels[g.level])
            .bind(g.human)
            .bind(format!("{:064x}", rng.r#gen::<u128>()))
            .bind(i64::from(g.team_size))
            .bind(g.time_control)
            .bind(g.started_at_ms)
            .bind(g.created_at)
            .bind(g.finished_at.unwrap_or(g.created_at + g.ply * 20))
            .bind(g.status)
            .bind(g.ply)
            .bind(g.winner)
            .bind(g.reason)
            .bind(g.finished_at)
            .execute(&mut *tx)
            .await
            .unwrap();
            for (m, name) in g.members.iter().enumerate() {
                sqlx::query(
                    "INSERT INTO seats (game_id, side, position, name, seat_hash) \
                     VALUES (?, ?, ?, ?, ?)",
                )
                .bind(&g.id)
                .bind(g.sides[m % 2])
                .bind((m / 2) as i64)
                .bind(name)
                .bind(format!("{:064x}", rng.r#gen::<u128>()))
                .execute(&mut *tx)
                .await
                .unwrap();
            }
            stored.seats += g.members.len();
            match g.kind {
                Kind::Finished => stored.finished += 1,
                Kind::Waiting => stored.waiting += 1,
                Kind::PlayingOnline => stored.playing_online += 1,
                Kind::PlayingOther => stored.playing_other += 1,
            }
        }
        tx.commit().await.unwrap();
    }
    if std::env::var_os("LISTINGS_ANALYZE").is_some() {
        sqlx::query("ANALYZE").execute(store.pool()).await.unwrap();
    }
    if let Ok(sql) = std::env::var("LISTINGS_SQL") {
        println!("listings: running LISTINGS_SQL: {sql}");
        sqlx::raw_sql(&sql).execute(store.pool()).await.unwrap();
    }
    stored
}

async fn explain(store: &Store, what: &str, sql: &str) {
    println!("listings: query plan of {what}:");
    let rows = sqlx::query(&format!("EXPLAIN QUERY PLAN {sql}"))
        .fetch_all(store.pool())
        .await
        .unwrap();
    for r in rows {
        let detail: String = r.try_get("detail").unwrap();
        println!("listings:   {detail}");
    }
}

/// One GET through the router: its time, and how many games it listed.
async fn get(router: &axum::Router, uri: &str) -> (Duration, usize) {
    let started = Instant::now();
    let res = router
        .clone()
        .oneshot(Request::get(uri).body(Body::empty()).unwrap())
        .await
        .unwrap();
    assert_eq!(res.status(), StatusCode::OK, "{uri}");
    let bytes = res.into_body().collect().await.unwrap().to_bytes();
    let took = started.elapsed();
    let v: Value = serde_json::from_slice(&bytes).unwrap();
    let listed = match &v {
        Value::Array(a) => a.len(),
        Value::Object(o) => o.values().filter_map(Value::as_array).map(Vec::len).sum(),
        _ => 0,
    };
    (took, listed)
}

fn at(sorted: &[Duration], p: f64) -> Duration {
    sorted[((sorted.len() - 1) as f64 * p).round() as usize]
}

#[tokio::main(flavor = "multi_thread", worker_threads = 2)]
async fn main() {
    let games = env_or("LISTINGS_GAMES", GAMES);
    let requests = env_or("LISTINGS_REQUESTS", REQUESTS);
    let dir = tempfile::tempdir().unwrap();
    let db = match std::env::var("LISTINGS_DB") {
        Ok(path) => {
            assert!(
                !std::path::Path::new(&path).exists(),
                "LISTINGS_DB={path} exists: name a new file"
            );
            path
        }
        Err(_) => dir
            .path()
            .join("listings.db")
            .to_string_lossy()
            .into_owned(),
    };

    let filling = Instant::now();
    let store = Store::open(&db).await.unwrap();
    let stored = fill(&store, games).await;
    println!(
        "listings: stored {games} games in {:.1} s ({} finished, {} waiting, {} online playing, \
         {} other playing; {} seats)",
        filling.elapsed().as_secs_f64(),
        stored.finished,
        stored.waiting,
        stored.playing_online,
        stored.playing_other,
        stored.seats
    );
    explain(
        &store,
        "the lobby in one scan (the former query)",
        LOBBY_SQL,
    )
    .await;
    explain(&store, "the records", RECORDS_SQL).await;
    explain(&store, "the seats of listed games", SEATS_SQL).await;
    explain(
        &store,
        "the lobby one status at a time (the store's)",
        LOBBY_BY_STATUS_SQL,
    )
    .await;
    for (what, sql) in [
        ("the lobby in one scan (the former query)", LOBBY_SQL),
        (
            "the lobby one status at a time (the store's)",
            LOBBY_BY_STATUS_SQL,
        ),
        ("the records query", RECORDS_SQL),
    ] {
        let mut times = Vec::with_capacity(requests);
        for _ in 0..requests {
            let started = Instant::now();
            let rows = sqlx::query(sql).fetch_all(store.pool()).await.unwrap();
            times.push(started.elapsed());
            assert!(!rows.is_empty(), "{what}");
        }
        times.sort();
        println!(
            "listings: SQL only, {what}: p50 {:?}, p99 {:?}",
            at(&times, 0.5),
            at(&times, 0.99)
        );
    }
    store.close().await;
    let bytes = std::fs::metadata(&db).map_or(0, |m| m.len());
    println!(
        "listings: database file {:.1} MiB",
        bytes as f64 / 1048576.0
    );

    let state = AppState::open(&Config {
        db: Some(db.clone()),
        ..Config::testing()
    })
    .await
    .unwrap();
    let router = app(state.clone());
    for uri in ["/api/lobby", "/api/records"] {
        // Warm the page cache and the connections' statement caches.
        for _ in 0..5 {
            get(&router, uri).await;
        }
        let mut times = Vec::with_capacity(requests);
        let mut listed = 0;
        for _ in 0..requests {
            let (took, n) = get(&router, uri).await;
            times.push(took);
            listed = n;
        }
        times.sort();
        println!(
            "listings: GET {uri}: {requests} requests, {listed} games a list: p50 {:?}, p99 {:?}, \
             max {:?}",
            at(&times, 0.5),
            at(&times, 0.99),
            at(&times, 1.0)
        );
    }
    state.store().close().await;
}
