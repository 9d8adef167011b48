//! `palabre loadtest`: N online games played by bots over WebSockets against
//! a running server. Reports moves per second, the move round-trip (sent to
//! acknowledged) and errors, then checks in the database that every
//! acknowledged move is there exactly once.

use std::collections::{HashMap, HashSet};
use std::sync::Arc;
use std::time::{Duration, Instant};

use anyhow::{Context, bail};
use futures_util::{SinkExt, StreamExt};
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};
use serde_json::{Value, json};
use tokio::sync::Mutex;
use tokio_tungstenite::connect_async;
use tokio_tungstenite::tungstenite::Message;

#[derive(Debug, Clone)]
pub struct Settings {
    pub addr: String,
    pub games: usize,
    pub duration: Duration,
    /// A bot's thinking time before each move.
    pub think: Duration,
    /// The server's database, to check the acknowledged moves against.
    pub db: Option<String>,
}

/// What all bots saw.
#[derive(Debug, Default)]
struct Tally {
    round_trips: Vec<Duration>,
    errors: usize,
    /// Acknowledged moves: game id → ply → notation.
    acked: HashMap<String, HashMap<usize, String>>,
    /// Every move sent, acknowledged or not: game id → (ply, notation).
    sent: HashMap<String, HashSet<(usize, String)>>,
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

/// A bot's place in a game.
#[derive(Debug, Clone)]
struct Place {
    id: String,
    seat: String,
    side: String,
}

/// One bot: plays its side whenever the hand is its own, until `end`.
async fn bot(
    addr: String,
    place: Place,
    think: Duration,
    end: Instant,
    tally: Arc<Mutex<Tally>>,
    seed: u64,
) -> anyhow::Result<()> {
    let Place { id, seat, side } = place;
    let (mut ws, _) = connect_async(format!("ws://{addr}/api/games/{id}/ws")).await?;
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
                    t.round_trips.push(sent.elapsed());
                    t.acked.entry(id.clone()).or_default().insert(ply, notation);
                }
            }
            Some("error") => {
                tally.lock().await.errors += 1;
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

/// Plays games in one slot, one after another, until `end`.
async fn slot(
    addr: String,
    index: usize,
    settings: Arc<Settings>,
    end: Instant,
    tally: Arc<Mutex<Tally>>,
) -> anyhow::Result<()> {
    let http = reqwest::Client::new();
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
        let created = post(&http, &addr, "/api/games", body).await?;
        let id = created["id"].as_str().context("id")?.to_owned();
        let joined = post(
            &http,
            &addr,
            &format!("/api/games/{id}/join"),
            json!({"name": format!("bot{index}b")}),
        )
        .await?;
        let seed = (index as u64) << 20 | round;
        let place = |v: &Value| -> anyhow::Result<Place> {
            Ok(Place {
                id: id.clone(),
                seat: v["seat"].as_str().context("seat")?.to_owned(),
                side: v["side"].as_str().context("side")?.to_owned(),
            })
        };
        let a = bot(
            addr.clone(),
            place(&created)?,
            settings.think,
            end,
            Arc::clone(&tally),
            seed,
        );
        let b = bot(
            addr.clone(),
            place(&joined)?,
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
async fn check(db: &str, t: &Tally) -> anyhow::Result<(usize, usize)> {
    let store = palabre_server::store::Store::open(db).await?;
    let (mut missing, mut doubled) = (0, 0);
    let empty = HashSet::new();
    for (id, acked) in &t.acked {
        let stored = store.moves(id).await?;
        let (m, d) = compare(acked, t.sent.get(id).unwrap_or(&empty), &stored);
        missing += m;
        doubled += d;
    }
    Ok((missing, doubled))
}

fn percentile(sorted: &[Duration], p: f64) -> Duration {
    sorted
        .get(((sorted.len().max(1) - 1) as f64 * p).round() as usize)
        .copied()
        .unwrap_or_default()
}

pub fn run(settings: Settings) -> anyhow::Result<()> {
    let runtime = tokio::runtime::Runtime::new()?;
    runtime.block_on(async move {
        let settings = Arc::new(settings);
        let tally = Arc::new(Mutex::new(Tally::default()));
        let started = Instant::now();
        let end = started + settings.duration;
        let slots: Vec<_> = (0..settings.games)
            .map(|i| {
                tokio::spawn(slot(
                    settings.addr.clone(),
                    i,
                    Arc::clone(&settings),
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
        let n = t.round_trips.len();
        println!(
            "games {} for {:.0} s, {} moves acknowledged, {:.0} moves/s",
            settings.games,
            elapsed.as_secs_f64(),
            n,
            n as f64 / elapsed.as_secs_f64()
        );
        println!(
            "round trip: p50 {:?}, p99 {:?}, max {:?}",
            percentile(&t.round_trips, 0.5),
            percentile(&t.round_trips, 0.99),
            percentile(&t.round_trips, 1.0)
        );
        println!("errors {}, failed slots {failures}", t.errors);
        match &settings.db {
            Some(db) => {
                let (missing, doubled) = check(db, &t).await?;
                println!("database: {missing} acknowledged moves missing, {doubled} doubled");
                if missing + doubled > 0 {
                    bail!("the database lost or doubled acknowledged moves");
                }
            }
            None => println!("database: not checked (pass --db FILE)"),
        }
        Ok(())
    })
}

#[cfg(test)]
mod tests {
    use super::*;

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
