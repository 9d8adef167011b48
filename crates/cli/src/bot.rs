//! `palabre bot`: connects an engine that speaks the engine protocol to a
//! Palabre server through the Bot API, as lichess-bot does for lichess. It
//! accepts challenges for the games it plays, and plays each game it starts
//! with an engine process of its own.

use std::collections::HashSet;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use anyhow::{Context, bail};
use futures_util::StreamExt;
use reqwest::header::{AUTHORIZATION, HeaderMap, HeaderValue};
use serde_json::Value;

use crate::contestant::Engine;
use palabre_ai::{Limits, SearchLimit};
use palabre_server::clock::TimeControl;

#[derive(Debug, clap::Args)]
pub struct BotArgs {
    /// The server's address, e.g. http://127.0.0.1:8080.
    #[arg(long)]
    server: String,
    /// A personal token with the bot:play scope.
    #[arg(long, env = "PALABRE_BOT_TOKEN")]
    token: String,
    /// The engine's command line, e.g. "palabre engine".
    #[arg(long)]
    engine: String,
    /// Thinking time a move, in milliseconds, in games without a live
    /// clock; under one (`5+3`, `10+5`) the engine gets the clock.
    #[arg(long, default_value_t = 500)]
    movetime: u64,
    /// Let the engine think on the opponent's time (`go ponder`), until
    /// the opponent's move arrives or for a minute at most. Each game's
    /// engine then takes a core while the opponent thinks: with `--games`
    /// above the cores, the games slow each other down.
    #[arg(long)]
    ponder: bool,
    /// Games played at once; challenges beyond are declined.
    #[arg(long, default_value_t = 4)]
    games: usize,
    /// Turn the account into a bot first (only an account with no games
    /// can be, and it cannot be undone).
    #[arg(long)]
    upgrade: bool,
}

/// Time kept back from the clock for the move's way to the server and the
/// server's answer.
const NETWORK_MARGIN: Duration = Duration::from_millis(500);

/// The longest the engine ponders: an opponent with days a move must not
/// keep a core busy for days.
const PONDER_CAP: Duration = Duration::from_secs(60);

/// A turn's search limits: under a live clock (`5+3`), the time left on
/// the bot's clock less [`NETWORK_MARGIN`]; otherwise (no clock, or days a
/// move) `movetime`.
fn turn_limits(full: &Value, state: &Value, movetime: Duration) -> Limits {
    let increment = full["time_control"]
        .as_str()
        .and_then(|tc| tc.parse::<TimeControl>().ok())
        .and_then(|tc| match tc {
            TimeControl::Live { increment_ms, .. } => u64::try_from(increment_ms).ok(),
            _ => None,
        })
        .map(Duration::from_millis);
    let turn = state["turn"].as_str().unwrap_or("");
    let left = state["clocks"][turn].as_u64().map(Duration::from_millis);
    match (increment, left) {
        (Some(increment), Some(left)) => Limits::new().with(SearchLimit::Clock {
            left: left.saturating_sub(NETWORK_MARGIN),
            increment,
        }),
        _ => Limits::new().with(SearchLimit::MoveTime(movetime)),
    }
}

/// What every task of the bot shares.
struct Bot {
    http: reqwest::Client,
    server: String,
    username: String,
    args: BotArgs,
    playing: Mutex<HashSet<String>>,
}

/// An NDJSON response read line by line, keep-alive blank lines skipped.
struct NdJson {
    body: std::pin::Pin<Box<dyn futures_util::Stream<Item = reqwest::Result<bytes::Bytes>> + Send>>,
    buf: Vec<u8>,
}

impl NdJson {
    fn new(res: reqwest::Response) -> NdJson {
        NdJson {
            body: Box::pin(res.bytes_stream()),
            buf: Vec::new(),
        }
    }

    /// The next line, or `None` when the stream ends.
    async fn next(&mut self) -> anyhow::Result<Option<Value>> {
        loop {
            while let Some(end) = self.buf.iter().position(|b| *b == b'\n') {
                let line: Vec<u8> = self.buf.drain(..=end).collect();
                let line = String::from_utf8_lossy(&line);
                if !line.trim().is_empty() {
                    return Ok(Some(serde_json::from_str(line.trim())?));
                }
            }
            match self.body.next().await {
                Some(chunk) => self.buf.extend_from_slice(&chunk?),
                None => return Ok(None),
            }
        }
    }
}

impl Bot {
    fn url(&self, path: &str) -> String {
        format!("{}{path}", self.server)
    }

    async fn post(&self, path: &str) -> anyhow::Result<Value> {
        let res = self.http.post(self.url(path)).send().await?;
        let status = res.status();
        let body: Value = res.json().await.unwrap_or(Value::Null);
        if !status.is_success() {
            bail!("POST {path}: {status} {body}");
        }
        Ok(body)
    }

    /// Answers a challenge: accepted if a game may start now.
    async fn challenge(&self, c: &Value) -> anyhow::Result<()> {
        let id = c["id"].as_str().context("a challenge without id")?;
        let busy = self.playing.lock().expect("playing").len() >= self.args.games;
        let answer = if busy { "decline" } else { "accept" };
        eprintln!(
            "challenge {id} from {}: {answer}",
            c["challenger"]["username"]
        );
        self.post(&format!("/api/challenge/{id}/{answer}")).await?;
        Ok(())
    }

    /// The `position …` command for a game's state.
    fn position(full: &Value, moves: &str) -> String {
        let game = full["game"].as_str().unwrap_or("yote");
        let fen = full["initial_fen"].as_str().unwrap_or("");
        let moves = moves.trim();
        if moves.is_empty() {
            format!("position {game} fen {fen}")
        } else {
            format!("position {game} fen {fen} moves {moves}")
        }
    }

    /// Sends the engine's move for `state` if it is this bot's turn.
    async fn turn(
        &self,
        id: &str,
        full: &Value,
        state: &Value,
        engine: &Arc<Mutex<Engine>>,
    ) -> anyhow::Result<()> {
        let me = |side: &Value| {
            full["players"][side.as_str().unwrap_or("")]["username"] == self.username.as_str()
        };
        if state["status"] != "playing" {
            return Ok(());
        }
        // The engine plays on: an offer of a draw is declined.
        if state["draw_offer"].is_string() && !me(&state["draw_offer"]) {
            let _ = self.post(&format!("/api/bot/game/{id}/draw/no")).await;
        }
        if !me(&state["turn"]) {
            return Ok(());
        }
        let moves = state["moves"].as_str().unwrap_or("");
        let position = Bot::position(full, moves);
        let limits = turn_limits(full, state, Duration::from_millis(self.args.movetime));
        let searcher = Arc::clone(engine);
        let best = tokio::task::spawn_blocking(move || {
            searcher.lock().expect("engine").best(&position, &limits)
        })
        .await??;
        let Some(best) = best else { return Ok(()) };
        let mut url = reqwest::Url::parse(&self.url(&format!("/api/bot/game/{id}/move")))?;
        url.path_segments_mut()
            .map_err(|()| anyhow::anyhow!("a server URL with no path"))?
            .push(&best);
        let res = self.http.post(url).send().await?;
        if !res.status().is_success() {
            eprintln!("game {id}: move {best} refused: {}", res.text().await?);
            return Ok(());
        }
        if self.args.ponder {
            // `Engine::best`, when the opponent's move arrives, stops it.
            let after = Bot::position(full, &format!("{moves} {best}"));
            let engine = Arc::clone(engine);
            tokio::task::spawn_blocking(move || {
                engine.lock().expect("engine").ponder(
                    &after,
                    &Limits::new().with(SearchLimit::MoveTime(PONDER_CAP)),
                )
            })
            .await??;
        }
        Ok(())
    }

    /// Plays game `id` to its end from its stream.
    async fn play(self: Arc<Bot>, id: String) -> anyhow::Result<()> {
        let cmd = self.args.engine.clone();
        let engine = tokio::task::spawn_blocking(move || Engine::spawn(&cmd)).await??;
        let engine = Arc::new(Mutex::new(engine));
        let res = self
            .http
            .get(self.url(&format!("/api/bot/game/stream/{id}")))
            .send()
            .await?
            .error_for_status()?;
        let mut lines = NdJson::new(res);
        let mut full = Value::Null;
        while let Some(line) = lines.next().await? {
            let state = match line["type"].as_str() {
                Some("gameFull") => {
                    full = line.clone();
                    line["state"].clone()
                }
                Some("gameState") => line,
                _ => continue,
            };
            self.turn(&id, &full, &state, &engine).await?;
            if state["status"] != "playing" && state["status"] != "waiting" {
                break;
            }
        }
        eprintln!("game {id} is over");
        Ok(())
    }

    /// Starts playing game `id` unless it is played already.
    fn start(self: &Arc<Bot>, id: &str) {
        if !self.playing.lock().expect("playing").insert(id.to_owned()) {
            return;
        }
        let bot = Arc::clone(self);
        let id = id.to_owned();
        tokio::spawn(async move {
            if let Err(e) = Arc::clone(&bot).play(id.clone()).await {
                eprintln!("game {id}: {e:#}");
            }
            bot.playing.lock().expect("playing").remove(&id);
        });
    }

    /// Follows the account's events until the stream ends.
    async fn listen(self: &Arc<Bot>) -> anyhow::Result<()> {
        let res = self
            .http
            .get(self.url("/api/stream/event"))
            .send()
            .await?
            .error_for_status()?;
        let mut events = NdJson::new(res);
        while let Some(event) = events.next().await? {
            match event["type"].as_str() {
                Some("challenge") => {
                    if let Err(e) = self.challenge(&event["challenge"]).await {
                        eprintln!("{e:#}");
                    }
                }
                Some("gameStart") => {
                    if let Some(id) = event["game"]["id"].as_str() {
                        self.start(id);
                    }
                }
                _ => {}
            }
        }
        Ok(())
    }
}

async fn connect(args: BotArgs) -> anyhow::Result<Arc<Bot>> {
    let mut headers = HeaderMap::new();
    headers.insert(
        AUTHORIZATION,
        HeaderValue::from_str(&format!("Bearer {}", args.token))?,
    );
    let http = reqwest::Client::builder()
        .default_headers(headers)
        .build()?;
    let server = args.server.trim_end_matches('/').to_owned();
    let me: Value = http
        .get(format!("{server}/api/account"))
        .send()
        .await?
        .error_for_status()
        .context("the token is refused")?
        .json()
        .await?;
    let username = me["username"].as_str().context("no username")?.to_owned();
    let bot = Arc::new(Bot {
        http,
        server,
        username,
        args,
        playing: Mutex::default(),
    });
    if me["bot"] != true {
        if !bot.args.upgrade {
            bail!("{} is not a bot account: run with --upgrade", bot.username);
        }
        bot.post("/api/bot/account/upgrade").await?;
    }
    Ok(bot)
}

/// Runs the bot until Ctrl-C: a dropped event stream is opened again.
pub fn run(args: BotArgs) -> anyhow::Result<()> {
    tokio::runtime::Runtime::new()?.block_on(async move {
        let bot = connect(args).await?;
        eprintln!("{} is listening on {}", bot.username, bot.server);
        loop {
            tokio::select! {
                r = bot.listen() => {
                    if let Err(e) = r {
                        eprintln!("event stream: {e:#}");
                    }
                    tokio::time::sleep(Duration::from_secs(1)).await;
                }
                _ = tokio::signal::ctrl_c() => return Ok(()),
            }
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn a_live_clock_goes_to_the_engine_and_anything_else_gets_movetime() {
        let ms = Duration::from_millis;
        let state = json!({"turn": "black", "clocks": {"red": 1000, "black": 250_500}});
        let live = json!({"time_control": "5+3"});
        assert_eq!(
            turn_limits(&live, &state, ms(500)).clock(),
            Some((ms(250_000), ms(3000)))
        );
        let nearly_out = json!({"turn": "red", "clocks": {"red": 200, "black": 1}});
        assert_eq!(
            turn_limits(&live, &nearly_out, ms(500)).clock(),
            Some((ms(0), ms(3000)))
        );
        for (full, state) in [
            (
                json!({"time_control": "none"}),
                json!({"turn": "red", "clocks": null}),
            ),
            (json!({"time_control": "1d"}), state.clone()),
            (live.clone(), json!({"turn": "red", "clocks": {"red": -20}})),
            (json!({"time_control": "x+3"}), state.clone()),
        ] {
            let limits = turn_limits(&full, &state, ms(500));
            assert_eq!((limits.clock(), limits.movetime()), (None, Some(ms(500))));
        }
    }
}
