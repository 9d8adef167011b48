//! The Bot API over real connections: the event stream, challenges made,
//! declined, canceled and accepted, a game's stream, moves in notation with
//! slashes, and a resignation that ends it for both streams.

mod common;

use std::time::Duration;

use futures_util::StreamExt;
use palabre_server::Limits;
use serde_json::{Value, json};

async fn serve() -> String {
    format!("http://{}", common::serve().await)
}

/// An account and its token (with `bot:play`).
struct Player {
    base: String,
    token: String,
    http: reqwest::Client,
}

impl Player {
    async fn new(base: &str, name: &str) -> Player {
        let http = reqwest::Client::new();
        let res = http
            .post(format!("{base}/api/account/signup"))
            .json(&json!({"username": name, "password": "correct horse"}))
            .send()
            .await
            .unwrap();
        let cookie = res.headers()["set-cookie"]
            .to_str()
            .unwrap()
            .split(';')
            .next()
            .unwrap()
            .to_owned();
        let t: Value = http
            .post(format!("{base}/api/account/tokens"))
            .header("cookie", cookie)
            .json(&json!({"description": "test", "scopes": ["bot:play"]}))
            .send()
            .await
            .unwrap()
            .json()
            .await
            .unwrap();
        Player {
            base: base.to_owned(),
            token: t["token"].as_str().unwrap().to_owned(),
            http,
        }
    }

    async fn call(&self, method: &str, path: &str, body: Option<Value>) -> (u16, Value) {
        let url = format!("{}{path}", self.base);
        let mut req = match method {
            "GET" => self.http.get(url),
            _ => self.http.post(url),
        };
        if let Some(body) = body {
            req = req.json(&body);
        }
        let res = req.bearer_auth(&self.token).send().await.unwrap();
        let status = res.status().as_u16();
        (status, res.json().await.unwrap_or(Value::Null))
    }

    async fn stream(&self, path: &str) -> Lines {
        let res = self
            .http
            .get(format!("{}{path}", self.base))
            .bearer_auth(&self.token)
            .send()
            .await
            .unwrap();
        assert_eq!(res.status().as_u16(), 200);
        assert_eq!(res.headers()["content-type"], "application/x-ndjson");
        Lines {
            body: Box::pin(res.bytes_stream()),
            buf: Vec::new(),
        }
    }
}

struct Lines {
    body: std::pin::Pin<Box<dyn futures_util::Stream<Item = reqwest::Result<bytes::Bytes>> + Send>>,
    buf: Vec<u8>,
}

impl Lines {
    /// The next JSON line within 10 s (`None` when the stream ended).
    async fn next(&mut self) -> Option<Value> {
        let read = async {
            loop {
                while let Some(end) = self.buf.iter().position(|b| *b == b'\n') {
                    let line: Vec<u8> = self.buf.drain(..=end).collect();
                    if line.len() > 1 {
                        return Some(serde_json::from_slice(&line).unwrap());
                    }
                }
                match self.body.next().await {
                    Some(chunk) => self.buf.extend_from_slice(&chunk.unwrap()),
                    None => return None,
                }
            }
        };
        tokio::time::timeout(Duration::from_secs(10), read)
            .await
            .expect("a line in time")
    }
}

#[tokio::test]
async fn challenges_events_and_a_game_through_the_streams() {
    let base = serve().await;
    let bot = Player::new(&base, "robot").await;
    let awa = Player::new(&base, "awa").await;
    // The Bot API is for bots.
    let (status, _) = bot
        .call("POST", "/api/bot/game/000000000000/resign", None)
        .await;
    assert_eq!(status, 403);
    assert_eq!(
        bot.call("POST", "/api/bot/account/upgrade", None).await.0,
        200
    );
    // A browser asks for compression: a stream must still go out line by line.
    let res = reqwest::Client::new()
        .get(format!("{base}/api/stream/event"))
        .bearer_auth(&bot.token)
        .header("accept-encoding", "gzip, br")
        .send()
        .await
        .unwrap();
    assert!(
        res.headers().get("content-encoding").is_none(),
        "{:?}",
        res.headers()
    );
    drop(res);
    let mut events = bot.stream("/api/stream/event").await;
    let mut awa_events = awa.stream("/api/stream/event").await;

    // Declined, then canceled: each side hears the other.
    let (status, c) = awa
        .call(
            "POST",
            "/api/challenge/robot",
            Some(json!({"game": "nsolo", "size": 8})),
        )
        .await;
    assert_eq!(status, 201, "{c}");
    let e = events.next().await.unwrap();
    assert_eq!(e["type"], "challenge");
    assert_eq!(e["challenge"]["id"], c["id"]);
    assert_eq!(e["challenge"]["challenger"]["username"], "awa");
    assert_eq!(e["challenge"]["dest_user"]["bot"], true);
    let id = c["id"].as_str().unwrap();
    assert_eq!(
        awa.call("POST", &format!("/api/challenge/{id}/accept"), None)
            .await
            .0,
        403
    );
    assert_eq!(
        bot.call("POST", &format!("/api/challenge/{id}/decline"), None)
            .await
            .0,
        200
    );
    assert_eq!(
        awa_events.next().await.unwrap()["type"],
        "challengeDeclined"
    );
    let (status, v) = bot
        .call("POST", &format!("/api/challenge/{id}/accept"), None)
        .await;
    assert_eq!(
        (status, v["error"]["code"].as_str()),
        (409, Some("challenge_answered"))
    );

    let (_, c) = awa
        .call(
            "POST",
            "/api/challenge/robot",
            Some(json!({"game": "yote"})),
        )
        .await;
    assert_eq!(events.next().await.unwrap()["type"], "challenge");
    let id = c["id"].as_str().unwrap();
    assert_eq!(
        awa.call("POST", &format!("/api/challenge/{id}/cancel"), None)
            .await
            .0,
        200
    );
    assert_eq!(events.next().await.unwrap()["type"], "challengeCanceled");

    // Accepted: both hear gameStart, with their own side.
    let (_, c) = awa
        .call(
            "POST",
            "/api/challenge/robot",
            Some(json!({"game": "yote", "side": "black"})),
        )
        .await;
    events.next().await.unwrap();
    let id = c["id"].as_str().unwrap();
    let (status, v) = bot
        .call("POST", &format!("/api/challenge/{id}/accept"), None)
        .await;
    assert_eq!(status, 200, "{v}");
    let game = v["game_id"].as_str().unwrap().to_owned();
    assert_eq!(game, id, "the game takes the challenge's id, as on lichess");
    let start = events.next().await.unwrap();
    assert_eq!(start["type"], "gameStart");
    assert_eq!(start["game"]["id"], game.as_str());
    assert_eq!(start["game"]["side"], "red");
    assert_eq!(start["game"]["opponent"]["username"], "awa");
    let start = awa_events.next().await.unwrap();
    assert_eq!(
        (start["type"].as_str(), start["game"]["side"].as_str()),
        (Some("gameStart"), Some("black"))
    );

    let mut stream = bot.stream(&format!("/api/bot/game/stream/{game}")).await;
    let full = stream.next().await.unwrap();
    assert_eq!(full["type"], "gameFull");
    assert_eq!(full["players"]["red"]["username"], "robot");
    assert_eq!(full["players"]["red"]["bot"], true);
    assert_eq!(full["players"]["black"]["rating"], 1500.0);
    assert_eq!(full["state"]["moves"], "");
    assert_eq!(full["state"]["turn"], "red");

    // Moves in notation, a slash and all; the owner checks them.
    let (status, v) = bot
        .call("POST", &format!("/api/bot/game/{game}/move/zz9"), None)
        .await;
    assert_eq!(
        (status, v["error"]["code"].as_str()),
        (400, Some("malformed_move")),
        "{v}"
    );
    let (status, v) = bot
        .call("POST", &format!("/api/bot/game/{game}/move/a1-a2"), None)
        .await;
    assert_eq!(
        (status, v["error"]["code"].as_str()),
        (422, Some("illegal_move")),
        "{v}"
    );
    assert_eq!(
        bot.call("POST", &format!("/api/bot/game/{game}/move/c3"), None)
            .await
            .0,
        200
    );
    let s = stream.next().await.unwrap();
    assert_eq!(
        (s["type"].as_str(), s["moves"].as_str()),
        (Some("gameState"), Some("c3"))
    );
    let (status, v) = bot
        .call("POST", &format!("/api/bot/game/{game}/move/c4"), None)
        .await;
    assert_eq!(
        (status, v["error"]["code"].as_str()),
        (409, Some("not_your_hand")),
        "{v}"
    );
    // Awa is no bot: she plays with her account through the games API.
    let (status, _) = awa
        .call("POST", &format!("/api/bot/game/{game}/move/c4"), None)
        .await;
    assert_eq!(status, 403);
    let (status, v) = awa
        .call(
            "POST",
            &format!("/api/games/{game}/moves"),
            Some(json!({"move": "c4", "ply": 1})),
        )
        .await;
    assert_eq!(status, 201, "{v}");
    assert_eq!(stream.next().await.unwrap()["moves"], "c3 c4");
    // A capture's notation has a slash: sent as is, or percent-encoded.
    let (_, state) = awa.call("GET", &format!("/api/games/{game}"), None).await;
    let capture = (0..)
        .map_while(|i| palabre_server::bots::move_from_state(&state, i))
        .find(|m| m.contains('/'))
        .expect("a capture");
    let path = format!("/api/bot/game/{game}/move/{capture}");
    let (status, v) = bot.call("POST", &path, None).await;
    assert_eq!(status, 200, "{capture}: {v}");
    let after = stream.next().await.unwrap();
    assert_eq!(after["ply"], 3);

    // Draws, as lichess's bots answer them: yes offers or accepts, no declines.
    let (status, _) = bot
        .call("POST", &format!("/api/bot/game/{game}/draw/yes"), None)
        .await;
    assert_eq!(status, 200);
    let offered = stream.next().await.unwrap();
    assert_eq!(offered["draw_offer"], "red", "{offered}");
    let (status, v) = bot
        .call("POST", &format!("/api/bot/game/{game}/draw/maybe"), None)
        .await;
    assert_eq!(status, 400, "{v}");
    let (status, v) = awa
        .call(
            "POST",
            &format!("/api/games/{game}/draw"),
            Some(json!({"action": "decline"})),
        )
        .await;
    assert_eq!(status, 200, "{v}");
    stream.next().await.unwrap();
    let (status, v) = bot
        .call("POST", &format!("/api/bot/game/{game}/draw/no"), None)
        .await;
    assert_eq!(
        (status, v["error"]["code"].as_str()),
        (409, Some("no_draw_offer"))
    );

    assert_eq!(
        bot.call("POST", &format!("/api/bot/game/{game}/resign"), None)
            .await
            .0,
        200
    );
    let last = stream.next().await.unwrap();
    assert_eq!(last["status"], "finished");
    assert_eq!(last["result"]["winner"], "black");
    assert!(
        stream.next().await.is_none(),
        "the stream ends with the game"
    );
    let finish = events.next().await.unwrap();
    assert_eq!(
        (finish["type"].as_str(), finish["game"]["id"].as_str()),
        (Some("gameFinish"), Some(game.as_str()))
    );
    assert_eq!(awa_events.next().await.unwrap()["type"], "gameFinish");

    // An account that has played cannot become a bot.
    let (status, v) = awa.call("POST", "/api/bot/account/upgrade", None).await;
    assert_eq!(status, 400, "{v}");
}

/// A game made by a challenge leaves memory when nobody uses it, as every
/// game does (an abandoned one would otherwise stay until a restart), and
/// its end is still announced once it is loaded again.
#[tokio::test]
async fn a_challenge_game_left_alone_leaves_memory_and_still_announces_its_end() {
    let limits = Limits {
        idle_game: Duration::from_millis(200),
        ..Limits::unlimited()
    };
    let base = format!("http://{}", common::serve_with(limits).await);
    let awa = Player::new(&base, "awa").await;
    let kofi = Player::new(&base, "kofi").await;
    let terms = json!({"game": "yote", "side": "red"});
    let (status, c) = awa.call("POST", "/api/challenge/kofi", Some(terms)).await;
    assert_eq!(status, 201, "{c}");
    let game = c["id"].as_str().unwrap().to_owned();
    let accept = format!("/api/challenge/{game}/accept");
    let (status, v) = kofi.call("POST", &accept, None).await;
    assert_eq!(status, 200, "{v}");
    let mut in_memory = Value::Null;
    for _ in 0..100 {
        in_memory = awa.call("GET", "/api/status", None).await.1["games_in_memory"].clone();
        if in_memory == 0 {
            break;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    assert_eq!(in_memory, 0, "the challenge's game stays in memory");

    let mut events = awa.stream("/api/stream/event").await;
    let start = events.next().await.unwrap();
    assert_eq!(
        (start["type"].as_str(), start["game"]["id"].as_str()),
        (Some("gameStart"), Some(game.as_str()))
    );
    let (status, v) = kofi
        .call("POST", &format!("/api/games/{game}/resign"), None)
        .await;
    assert_eq!(status, 200, "{v}");
    let finish = events.next().await.unwrap();
    assert_eq!(
        (finish["type"].as_str(), finish["game"]["id"].as_str()),
        (Some("gameFinish"), Some(game.as_str()))
    );
    assert_eq!(finish["game"]["result"]["winner"], "red", "{finish}");
}

/// Challenges count as game creations: one address cannot flood an account
/// with them (each waits for an answer for ever, and every new event stream
/// of the account lists them all).
#[tokio::test]
async fn a_flood_of_challenges_is_throttled() {
    let app = common::new_app(Limits {
        creates_per_minute: 2,
        ..Limits::unlimited()
    })
    .await;
    let mut spammer = common::Client::new(&app);
    spammer.sign_up("spammer", "correct horse").await;
    let mut target = common::Client::new(&app);
    target.sign_up("target", "correct horse").await;
    let terms = json!({"game": "yote"});
    for _ in 0..2 {
        let (status, v) = spammer
            .post("/api/challenge/target", Some(terms.clone()))
            .await;
        assert_eq!(status.as_u16(), 201, "{v}");
    }
    let (status, v, retry) = spammer
        .send("POST", "/api/challenge/target", Some(terms), &[])
        .await;
    assert_eq!((status.as_u16(), common::code(&v)), (429, "rate_limited"));
    assert!(retry.is_some_and(|s| s >= 1), "Retry-After: {retry:?}");
}

on_both!(
    challenges_waiting_at_once_stay_within_the_cap,
    challenges_waiting_at_once
);

/// An account has at most 20 challenges waiting for an answer, even when
/// many are sent at once: each is loaded and shown every time its player's
/// event stream opens, so a flood of them to one player had no bound.
async fn challenges_waiting_at_once(app: axum::Router) {
    let mut spammer = common::Client::new(&app);
    spammer.sign_up("spammer", "correct horse").await;
    common::Client::new(&app)
        .sign_up("target", "correct horse")
        .await;
    let asks = (0..30).map(|_| {
        let mut c = spammer.clone();
        async move {
            let terms = json!({"game": "yote"});
            c.post("/api/challenge/target", Some(terms)).await
        }
    });
    let answers = futures_util::future::join_all(asks).await;
    let made: Vec<&str> = answers
        .iter()
        .filter(|(s, _)| s.as_u16() == 201)
        .filter_map(|(_, v)| v["id"].as_str())
        .collect();
    let refused = answers
        .iter()
        .filter(|(s, v)| s.as_u16() == 400 && common::code(v) == "bad_request")
        .count();
    assert_eq!((made.len(), refused), (20, 10), "{answers:?}");
    // An answered challenge frees its place.
    let (status, v) = spammer
        .post(&format!("/api/challenge/{}/cancel", made[0]), None)
        .await;
    assert_eq!(status.as_u16(), 200, "{v}");
    let (status, v) = spammer
        .post("/api/challenge/target", Some(json!({"game": "yote"})))
        .await;
    assert_eq!(status.as_u16(), 201, "{v}");
}

/// A server in memory and its store, where a test can make writes fail.
async fn serve_store() -> (String, palabre_server::AppState) {
    let (addr, state) = common::serve_state(Limits::unlimited()).await;
    (format!("http://{addr}"), state)
}

/// A challenge from `awa` to `kofi` accepted: its game's id.
async fn challenge_game(awa: &Player, kofi: &Player) -> String {
    let (status, c) = awa
        .call("POST", "/api/challenge/kofi", Some(json!({"game": "yote"})))
        .await;
    assert_eq!(status, 201, "{c}");
    let id = c["id"].as_str().unwrap().to_owned();
    let (status, v) = kofi
        .call("POST", &format!("/api/challenge/{id}/accept"), None)
        .await;
    assert_eq!(status, 200, "{v}");
    id
}

/// Whether `name` shows as present in game `id`.
async fn present(player: &Player, id: &str, name: &str) -> bool {
    let (_, state) = player.call("GET", &format!("/api/games/{id}"), None).await;
    let teams = state["teams"].as_object().expect("teams").clone();
    teams
        .values()
        .flat_map(|team| team.as_array().unwrap().clone())
        .find(|m| m["name"] == name)
        .unwrap_or_else(|| panic!("{name} plays in {state}"))["online"]
        == true
}

/// A game stream that fails after its subscription (here the ratings of
/// `gameFull` cannot be read) does not leave its player present for good.
#[tokio::test]
async fn a_game_stream_that_fails_before_it_starts_leaves_no_presence_behind() {
    let (base, state) = serve_store().await;
    let awa = Player::new(&base, "awa").await;
    let kofi = Player::new(&base, "kofi").await;
    let game = challenge_game(&awa, &kofi).await;
    assert!(!present(&awa, &game, "awa").await);

    common::exec(&state, "ALTER TABLE ratings RENAME TO ratings_away").await;
    let (status, v) = awa
        .call("GET", &format!("/api/bot/game/stream/{game}"), None)
        .await;
    common::exec(&state, "ALTER TABLE ratings_away RENAME TO ratings").await;
    assert_eq!(status, 500, "{v}");
    for _ in 0..100 {
        if !present(&awa, &game, "awa").await {
            return;
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    panic!("a stream that never began keeps awa present");
}

/// An accept that hits a storage error half-way (the challenged player's
/// place, or the challenge's own answer, not written) is finished by the
/// next accept, rather than leaving the challenge unacceptable for good.
#[tokio::test]
async fn an_accept_that_failed_half_way_is_finished_by_the_next() {
    let (base, state) = serve_store().await;
    let awa = Player::new(&base, "awa").await;
    let kofi = Player::new(&base, "kofi").await;
    let (kofi_id,): (i64,) = sqlx::query_as("SELECT id FROM accounts WHERE username = 'kofi'")
        .fetch_one(state.store().pool())
        .await
        .unwrap();
    let failing = [
        format!("BEFORE INSERT ON seats WHEN NEW.account_id = {kofi_id}"),
        "BEFORE UPDATE ON challenges WHEN NEW.status = 'accepted'".to_owned(),
    ];
    for when in failing {
        let (status, c) = awa
            .call("POST", "/api/challenge/kofi", Some(json!({"game": "yote"})))
            .await;
        assert_eq!(status, 201, "{c}");
        let id = c["id"].as_str().unwrap();
        let accept = format!("/api/challenge/{id}/accept");
        common::exec(
            &state,
            &format!("CREATE TRIGGER fail {when} BEGIN SELECT RAISE(ABORT, 'injected'); END"),
        )
        .await;
        let (status, v) = kofi.call("POST", &accept, None).await;
        common::exec(&state, "DROP TRIGGER fail").await;
        assert_eq!(status, 500, "{when}: {v}");
        // Still waiting for its accept: the challenged player's stream
        // shows it, so a bot that lost the id finds it again.
        let mut events = kofi.stream("/api/stream/event").await;
        let mut shown = false;
        while let Some(e) = events.next().await {
            if e["type"] == "challenge" && e["challenge"]["id"] == id {
                shown = true;
                break;
            }
        }
        assert!(shown, "{when}: the challenge is in kofi's event stream");
        drop(events);
        // Its game may wait for kofi already: nobody else is offered it.
        let (_, lobby) = awa.call("GET", "/api/lobby", None).await;
        assert!(!lobby["open"].to_string().contains(id), "{when}: {lobby}");

        let (status, v) = kofi.call("POST", &accept, None).await;
        assert_eq!(
            (status, v["game_id"].as_str()),
            (200, Some(id)),
            "{when}: {v}"
        );
        let (_, shown) = awa
            .call("GET", &format!("/api/challenge/{id}/show"), None)
            .await;
        assert_eq!(
            (shown["status"].as_str(), shown["game_id"].as_str()),
            (Some("accepted"), Some(id)),
            "{when}"
        );
        let (_, game) = awa.call("GET", &format!("/api/games/{id}"), None).await;
        assert_eq!(game["status"], "playing", "{when}: {game}");
        let mut names: Vec<&str> = ["red", "black"]
            .iter()
            .flat_map(|side| game["teams"][side].as_array().unwrap())
            .map(|m| m["name"].as_str().unwrap())
            .collect();
        names.sort_unstable();
        assert_eq!(names, ["awa", "kofi"], "{when}: one place each");
        let (status, v) = kofi.call("POST", &accept, None).await;
        assert_eq!(
            (status, v["error"]["code"].as_str()),
            (409, Some("challenge_answered")),
            "{when}"
        );
    }
}
