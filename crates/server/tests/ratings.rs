//! Ratings: Glicko-2 checked against examples worked by hand, and rated
//! games between accounts played through the API, with the ratings they
//! leave on both profiles, in the lobby and on the leaderboard.

mod common;

use axum::http::StatusCode;
use common::{Client, code, new_app};
use palabre_server::Limits;
use palabre_server::ratings::{Rating, rate};
use serde_json::{Value, json};
use skillratings::glicko2::{Glicko2Config, Glicko2Rating, glicko2_rating_period};

fn close(a: f64, b: f64, within: f64) -> bool {
    (a - b).abs() <= within
}

/// One game, worked by hand with the steps of Glickman's « Example of the
/// Glicko-2 system » (τ = 0.5): a player at 1500 ± 200 beats one at
/// 1400 ± 30, both with volatility 0.06.
///
/// 1. μ = 0, φ = 200 / 173.7178 = 1.151292; μⱼ = −100 / 173.7178 =
///    −0.575646, φⱼ = 30 / 173.7178 = 0.172694.
/// 2. g(φⱼ) = 1 / √(1 + 3φⱼ²/π²) = 0.995498;
///    E = 1 / (1 + exp(−g(φⱼ)(μ − μⱼ))) = 0.639468.
/// 3. v = 1 / (g² E (1 − E)) = 4.376797.
/// 4. Δ = v g (1 − E) = 1.570873.
/// 5. Illinois iteration on f(x) from a = ln σ² (Δ² < φ² + v, so
///    B = a − kτ): σ′ = 0.0599987.
/// 6. φ* = √(φ² + σ′²) = 1.152855.
/// 7. φ′ = 1 / √(1/φ*² + 1/v) = 1.009699; μ′ = μ + φ′² g (1 − E) = 0.365905.
/// 8. r′ = 173.7178 μ′ + 1500 = 1563.564; RD′ = 173.7178 φ′ = 175.403.
///
/// The loser, the same steps from its side: g(φⱼ) = 0.844282, E = 0.380835,
/// v = 5.949526, Δ = −1.912961, σ′ = 0.0599991, φ* = 0.182820 (the time
/// that passed widens a narrow deviation), φ′ = 0.182308, μ′ = −0.586333:
/// r′ = 1398.144, RD′ = 31.670.
#[test]
fn one_game_matches_the_hand_worked_glicko2_steps() {
    let winner = Rating {
        rating: 1500.0,
        deviation: 200.0,
        volatility: 0.06,
        ..Rating::default()
    };
    let loser = Rating {
        rating: 1400.0,
        deviation: 30.0,
        volatility: 0.06,
        ..Rating::default()
    };
    let (w, l) = rate(&winner, &loser, 1.0);
    assert!(close(w.rating, 1563.564, 0.01), "{}", w.rating);
    assert!(close(w.deviation, 175.403, 0.01), "{}", w.deviation);
    assert!(close(w.volatility, 0.0599987, 1e-6), "{}", w.volatility);
    assert_eq!((w.games, w.wins, w.losses), (1, 1, 0));
    assert!(close(l.rating, 1398.144, 0.01), "{}", l.rating);
    assert!(close(l.deviation, 31.670, 0.01), "{}", l.deviation);
    assert!(close(l.volatility, 0.0599991, 1e-6), "{}", l.volatility);
    assert_eq!((l.games, l.wins, l.losses), (1, 0, 1));
}

/// The crate's rating period against the example in Glickman's paper: a
/// 1500 ± 200 player beats 1400 ± 30 and loses to 1550 ± 100 and
/// 1700 ± 300, ending at 1464.06 ± 151.52 with volatility 0.05999.
#[test]
fn the_crate_reproduces_glickmans_published_example() {
    let player = Glicko2Rating {
        rating: 1500.0,
        deviation: 200.0,
        volatility: 0.06,
    };
    let opponent = |rating, deviation| Glicko2Rating {
        rating,
        deviation,
        volatility: 0.06,
    };
    let results = [
        (opponent(1400.0, 30.0), skillratings::Outcomes::WIN),
        (opponent(1550.0, 100.0), skillratings::Outcomes::LOSS),
        (opponent(1700.0, 300.0), skillratings::Outcomes::LOSS),
    ];
    let after = glicko2_rating_period(&player, &results, &Glicko2Config::new());
    assert!(close(after.rating, 1464.06, 0.01), "{}", after.rating);
    assert!(close(after.deviation, 151.52, 0.01), "{}", after.deviation);
    assert!(
        close(after.volatility, 0.05999, 1e-5),
        "{}",
        after.volatility
    );
}

async fn rated_game(creator: &mut Client, joiner: &mut Client, body: Value) -> (String, Value) {
    let (status, v) = creator.post("/api/games", Some(body)).await;
    assert_eq!(status, StatusCode::CREATED, "{v}");
    let id = v["id"].as_str().unwrap().to_owned();
    let (status, v) = joiner
        .post(&format!("/api/games/{id}/join"), Some(json!({})))
        .await;
    assert_eq!(status, StatusCode::CREATED, "{v}");
    (id, v["state"].clone())
}

/// Plays random legal moves, each side from its own client, until the game
/// ends; the final state.
async fn play_out(red: &mut Client, black: &mut Client, id: &str) -> Value {
    use rand::{Rng, SeedableRng};
    let mut rng = rand::rngs::SmallRng::seed_from_u64(7);
    for _ in 0..2_000 {
        let (_, state) = red.get(&format!("/api/games/{id}")).await;
        if state["status"] == "finished" {
            return state;
        }
        let fen: palabre_rules::yote::Position = state["fen"].as_str().unwrap().parse().unwrap();
        let moves = fen.legal_moves();
        let pick = moves[rng.gen_range(0..moves.len())].to_string();
        let ply = state["ply"].as_u64().unwrap();
        let mover = if state["turn"] == "red" {
            &mut *red
        } else {
            &mut *black
        };
        let (status, v) = mover
            .post(
                &format!("/api/games/{id}/moves"),
                Some(json!({"move": pick, "ply": ply})),
            )
            .await;
        assert_eq!(status, StatusCode::CREATED, "{v}");
    }
    panic!("the game did not end");
}

on_both!(
    a_rated_game_played_to_the_end_moves_both_ratings,
    rated_game_to_the_end
);

async fn rated_game_to_the_end(app: axum::Router) {
    let mut awa = Client::new(&app);
    awa.sign_up("awa", "correct horse").await;
    let mut kofi = Client::new(&app);
    kofi.sign_up("kofi", "correct horse").await;
    let (id, state) = rated_game(
        &mut awa,
        &mut kofi,
        json!({"game": "yote", "opponent": "online", "side": "red", "rated": true}),
    )
    .await;
    assert_eq!(state["rated"], true);
    assert_eq!(state["teams"]["black"][0]["name"], "kofi");
    assert_eq!(state["teams"]["black"][0]["account"], true);
    let end = play_out(&mut awa, &mut kofi, &id).await;
    let score = match end["result"]["winner"].as_str() {
        Some("red") => 1.0,
        Some(_) => 0.0,
        None => 0.5,
    };
    let (red, black) = rate(&Rating::default(), &Rating::default(), score);
    // Read at once: the update was made before the last move was answered.
    for (name, expected) in [("awa", red), ("kofi", black)] {
        let (status, profile) = awa.get(&format!("/api/users/{name}")).await;
        assert_eq!(status, StatusCode::OK);
        let r = &profile["ratings"]["yote"];
        assert!(
            close(r["rating"].as_f64().unwrap(), expected.rating, 1e-9),
            "{profile}"
        );
        assert!(close(
            r["deviation"].as_f64().unwrap(),
            expected.deviation,
            1e-9
        ));
        assert!(close(
            r["volatility"].as_f64().unwrap(),
            expected.volatility,
            1e-12
        ));
        assert_eq!(r["games"], 1);
        assert_eq!(profile["ratings"]["nsolo8"]["games"], 0);
        assert_eq!(profile["history"]["yote"][0]["game_id"], id.as_str());
        assert_eq!(profile["games"][0]["id"], id.as_str());
        assert_eq!(profile["games"][0]["rated"], true);
        let won = profile["results"]["yote"].clone();
        assert_eq!(
            won["wins"].as_i64().unwrap()
                + won["draws"].as_i64().unwrap()
                + won["losses"].as_i64().unwrap(),
            1
        );
    }
    let (_, me) = kofi.get("/api/account").await;
    assert!(close(
        me["ratings"]["yote"]["rating"].as_f64().unwrap(),
        black.rating,
        1e-9
    ));
}

#[tokio::test]
async fn resignations_count_and_aborts_do_not() {
    let app = new_app(Limits::unlimited()).await;
    let mut awa = Client::new(&app);
    awa.sign_up("awa", "correct horse").await;
    let mut kofi = Client::new(&app);
    kofi.sign_up("kofi", "correct horse").await;
    let nsolo =
        json!({"game": "nsolo", "size": 8, "opponent": "online", "side": "south", "rated": true});
    let (id, _) = rated_game(&mut awa, &mut kofi, nsolo.clone()).await;
    let (status, v) = awa.post(&format!("/api/games/{id}/abort"), None).await;
    assert_eq!(status, StatusCode::OK, "{v}");
    let (_, profile) = awa.get("/api/users/awa").await;
    assert_eq!(profile["ratings"]["nsolo8"]["games"], 0);

    let (id, _) = rated_game(&mut awa, &mut kofi, nsolo).await;
    let (status, v) = kofi.post(&format!("/api/games/{id}/resign"), None).await;
    assert_eq!(status, StatusCode::OK, "{v}");
    let (won, lost) = rate(&Rating::default(), &Rating::default(), 1.0);
    let (_, a) = awa.get("/api/users/awa").await;
    let (_, k) = awa.get("/api/users/kofi").await;
    assert!(close(
        a["ratings"]["nsolo8"]["rating"].as_f64().unwrap(),
        won.rating,
        1e-9
    ));
    assert!(close(
        k["ratings"]["nsolo8"]["rating"].as_f64().unwrap(),
        lost.rating,
        1e-9
    ));
    assert_eq!(
        a["results"]["nsolo8"],
        json!({"wins": 1, "draws": 0, "losses": 0})
    );
    assert_eq!(
        k["results"]["nsolo8"],
        json!({"wins": 0, "draws": 0, "losses": 1})
    );
    assert_eq!(a["ratings"]["nsolo"]["games"], 0, "4×8 is its own pool");
}

#[tokio::test]
async fn rated_games_are_for_accounts_without_take_backs_or_hints() {
    let app = new_app(Limits::unlimited()).await;
    let mut guest = Client::new(&app);
    let body = json!({"game": "yote", "opponent": "online", "rated": true, "name": "G"});
    let (status, v) = guest.post("/api/games", Some(body)).await;
    assert_eq!(
        (status, code(&v)),
        (StatusCode::UNAUTHORIZED, "sign_in_required")
    );
    let mut awa = Client::new(&app);
    awa.sign_up("awa", "correct horse").await;
    let (status, v) = awa
        .post(
            "/api/games",
            Some(json!({"game": "yote", "opponent": "machine", "rated": true})),
        )
        .await;
    assert_eq!((status, code(&v)), (StatusCode::BAD_REQUEST, "bad_request"));
    let (status, v) = awa
        .post(
            "/api/games",
            Some(json!({"game": "yote", "opponent": "online", "side": "red", "rated": true})),
        )
        .await;
    assert_eq!(status, StatusCode::CREATED, "{v}");
    let id = v["id"].as_str().unwrap().to_owned();
    let (status, v) = guest
        .post(&format!("/api/games/{id}/join"), Some(json!({"name": "G"})))
        .await;
    assert_eq!(
        (status, code(&v)),
        (StatusCode::UNAUTHORIZED, "sign_in_required")
    );
    let (status, v) = awa
        .post(&format!("/api/games/{id}/join"), Some(json!({})))
        .await;
    assert_eq!((status, code(&v)), (StatusCode::CONFLICT, "already_seated"));
    let mut kofi = Client::new(&app);
    kofi.sign_up("kofi", "correct horse").await;
    kofi.post(&format!("/api/games/{id}/join"), Some(json!({})))
        .await;
    awa.post(
        &format!("/api/games/{id}/moves"),
        Some(json!({"move": "c3", "ply": 0})),
    )
    .await;
    let (status, v) = awa.post(&format!("/api/games/{id}/takeback"), None).await;
    assert_eq!((status, code(&v)), (StatusCode::CONFLICT, "rated_game"));
    let (status, v) = awa.get(&format!("/api/games/{id}/hint")).await;
    assert_eq!((status, code(&v)), (StatusCode::CONFLICT, "rated_game"));
}

#[tokio::test]
async fn a_rated_seek_shows_its_rating_and_keeps_to_its_range() {
    let app = new_app(Limits::unlimited()).await;
    let mut awa = Client::new(&app);
    awa.sign_up("awa", "correct horse").await;
    let (status, v) = awa
        .post(
            "/api/games",
            Some(json!({"game": "yote", "opponent": "online", "rated": true,
                        "rating_min": 1600, "rating_max": 2000})),
        )
        .await;
    assert_eq!(status, StatusCode::CREATED, "{v}");
    let id = v["id"].as_str().unwrap().to_owned();
    let (_, lobby) = awa.get("/api/lobby").await;
    let seek = &lobby["open"][0];
    assert_eq!(seek["id"], id.as_str());
    assert_eq!(seek["rated"], true);
    assert_eq!(seek["rating"], 1500.0);
    assert_eq!(seek["rating_range"], json!([1600, 2000]));
    let mut kofi = Client::new(&app);
    kofi.sign_up("kofi", "correct horse").await;
    let (status, v) = kofi
        .post(&format!("/api/games/{id}/join"), Some(json!({})))
        .await;
    assert_eq!(
        (status, code(&v)),
        (StatusCode::FORBIDDEN, "rating_out_of_range")
    );
    let (_, state) = kofi.get(&format!("/api/games/{id}")).await;
    assert_eq!(state["status"], "waiting", "a refused join changes nothing");
    let (status, v) = awa
        .post(
            "/api/games",
            Some(json!({"game": "yote", "opponent": "online", "rating_min": 1600})),
        )
        .await;
    assert_eq!((status, code(&v)), (StatusCode::BAD_REQUEST, "bad_request"));
}

on_both!(
    the_leaderboard_lists_players_whose_rating_is_known,
    leaderboard
);

async fn leaderboard(app: axum::Router) {
    let mut awa = Client::new(&app);
    awa.sign_up("awa", "correct horse").await;
    let mut kofi = Client::new(&app);
    kofi.sign_up("kofi", "correct horse").await;
    let mut games = 0;
    let mut listed_after = None;
    while games < 16 {
        let (id, _) = rated_game(
            &mut awa,
            &mut kofi,
            json!({"game": "yote", "opponent": "online", "side": "red", "rated": true}),
        )
        .await;
        // Awa wins two in three.
        let loser = if games % 3 == 2 { &mut awa } else { &mut kofi };
        let (status, v) = loser.post(&format!("/api/games/{id}/resign"), None).await;
        assert_eq!(status, StatusCode::OK, "{v}");
        games += 1;
        let (_, board) = awa.get("/api/leaderboard/yote").await;
        let players = board["players"].as_array().unwrap();
        if games < 10 {
            assert!(players.is_empty(), "after {games} games: {board}");
        }
        if !players.is_empty() && listed_after.is_none() {
            listed_after = Some(games);
            assert_eq!(players[0]["username"], "awa");
            assert_eq!(players[0]["rank"], 1);
            assert_eq!(players[1]["username"], "kofi");
            assert!(players[1]["deviation"].as_f64().unwrap() < 110.0);
            assert!(players[0]["games"].as_i64().unwrap() >= 10);
        }
    }
    assert!(
        listed_after.is_some(),
        "listed once the deviation fell under 110"
    );
    // Games end within one second here: the history keeps their order.
    let (_, profile) = awa.get("/api/users/awa").await;
    let points = profile["history"]["yote"].as_array().unwrap();
    assert_eq!(points.len(), 16);
    for pair in points.windows(2) {
        let (before, after) = (&pair[0], &pair[1]);
        let chained = before["rating"].as_f64().unwrap() + after["diff"].as_f64().unwrap();
        assert!(
            close(chained, after["rating"].as_f64().unwrap(), 1e-6),
            "{before} {after}"
        );
    }
    let (status, _) = awa.get("/api/leaderboard/chess").await;
    assert_eq!(status, StatusCode::NOT_FOUND);
    let (_, all) = awa.get("/api/leaderboard").await;
    assert_eq!(all["nsolo8"]["players"], json!([]));
    assert_eq!(all["yote"]["players"].as_array().unwrap().len(), 2);
}

/// A rated game lost on time, found by the sweeper with nobody connected:
/// the flag's end updates both ratings like any other.
#[tokio::test]
async fn a_loss_on_time_counts() {
    use palabre_server::clock::now_ms;
    use palabre_server::domain::{GameKind, Opponent, Side, Status};
    use palabre_server::seats::seat_hash;
    use palabre_server::store::{GameRow, Member, Summary};
    use palabre_server::{AppState, Config, app};

    let state = AppState::open(&Config::testing()).await.unwrap();
    let router = app(state.clone());
    let mut awa = Client::new(&router);
    awa.sign_up("awa", "correct horse").await;
    let mut kofi = Client::new(&router);
    kofi.sign_up("kofi", "correct horse").await;
    let store = state.store();
    let account =
        |name: &'static str| async move { store.account_named(name).await.unwrap().unwrap().id };
    let (a, k) = (account("awa").await, account("kofi").await);
    let id = "00000000abcd";
    let row = GameRow {
        id: id.into(),
        kind: GameKind::Yote,
        size: 5,
        start_fen: palabre_rules::yote::Position::START.to_string(),
        opponent: Opponent::Online,
        level: palabre_ai::Level::Debutant,
        human: None,
        seat_hash: seat_hash("unused"),
        ended: None,
        team_size: 1,
        time_control: "5+3".parse().unwrap(),
        started_at_ms: Some(now_ms() - 600_000),
        rematch_id: None,
        damaged: None,
        account: None,
        rated: true,
        rating_range: None,
        clock_credit_ms: 0,
    };
    let member = |side, name: &str, account| Member {
        side,
        position: 0,
        name: name.into(),
        seat_hash: seat_hash(name),
        account: Some(account),
        bot: false,
    };
    let summary = |ply, deadline_ms| Summary {
        status: Status::Playing,
        ply,
        result: None,
        machine_due: false,
        deadline_ms,
        clock_credit_ms: 0,
    };
    // Red moved five minutes and a moment ago; black's clock has run out.
    let first = now_ms() - 300_050;
    store
        .create(&row, Some(&member(Side::Red, "awa", a)), &summary(0, None))
        .await
        .unwrap();
    store
        .join(
            id,
            None,
            &member(Side::Black, "kofi", k),
            None,
            &summary(0, None),
        )
        .await
        .unwrap();
    store
        .append_move(
            id,
            None,
            0,
            "c3",
            Some(300_000),
            &summary(1, Some(first + 300_000)),
        )
        .await
        .unwrap();
    sqlx::query("UPDATE moves SET played_at_ms = $1 WHERE game_id = $2")
        .bind(first)
        .bind(id)
        .execute(store.pool())
        .await
        .unwrap();

    let (won, lost) = rate(&Rating::default(), &Rating::default(), 1.0);
    for _ in 0..200 {
        let (_, profile) = awa.get("/api/users/awa").await;
        if profile["ratings"]["yote"]["games"] == 1 {
            let (_, game) = awa.get(&format!("/api/games/{id}")).await;
            assert_eq!(game["result"]["reason"], "timeout", "{game}");
            assert!(close(
                profile["ratings"]["yote"]["rating"].as_f64().unwrap(),
                won.rating,
                1e-9
            ));
            let (_, other) = awa.get("/api/users/kofi").await;
            assert!(close(
                other["ratings"]["yote"]["rating"].as_f64().unwrap(),
                lost.rating,
                1e-9
            ));
            assert_eq!(other["results"]["yote"]["losses"], 1);
            return;
        }
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
    }
    panic!("the flag never fell, or the ratings never moved");
}
