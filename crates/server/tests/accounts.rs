//! Accounts on the router: signing up, in and out, throttled log-ins,
//! refused cross-site writes, seats that follow an account, tokens, and an
//! account's deletion, which keeps its games.

mod common;

use axum::http::StatusCode;
use common::{Client, code, new_app};
use palabre_server::Limits;
use serde_json::json;

on_both!(sign_up_log_out_and_log_in_again, sign_up_and_in);

async fn sign_up_and_in(app: axum::Router) {
    let mut awa = Client::new(&app);
    let (status, v) = awa.get("/api/account").await;
    assert_eq!(status, StatusCode::UNAUTHORIZED);
    assert_eq!(code(&v), "sign_in_required");

    let (status, v) = awa.sign_up("Awa_N", "correct horse").await;
    assert_eq!(status, StatusCode::CREATED, "{v}");
    assert_eq!(v, json!({"username": "Awa_N"}));
    let (status, v) = awa.get("/api/account").await;
    assert_eq!(status, StatusCode::OK, "{v}");
    assert_eq!(v["username"], "Awa_N");
    for pool in ["yote", "nsolo8", "nsolo"] {
        assert_eq!(v["ratings"][pool]["rating"], 1500.0);
        assert_eq!(v["ratings"][pool]["deviation"], 350.0);
        assert_eq!(v["ratings"][pool]["volatility"], 0.06);
        assert_eq!(v["ratings"][pool]["games"], 0);
    }

    let (status, _) = awa.post("/api/account/logout", None).await;
    assert_eq!(status, StatusCode::NO_CONTENT);
    assert_eq!(awa.get("/api/account").await.0, StatusCode::UNAUTHORIZED);

    // Names are unique whatever their case; the password is checked.
    let mut other = Client::new(&app);
    let (status, v) = other.sign_up("awa_n", "another one").await;
    assert_eq!((status, code(&v)), (StatusCode::CONFLICT, "name_taken"));
    let (status, v) = awa.log_in("AWA_N", "wrong horse").await;
    assert_eq!(
        (status, code(&v)),
        (StatusCode::UNAUTHORIZED, "wrong_credentials")
    );
    assert_eq!(awa.get("/api/account").await.0, StatusCode::UNAUTHORIZED);
    let (status, v) = awa.log_in("awa_n", "correct horse").await;
    assert_eq!(status, StatusCode::OK, "{v}");
    assert_eq!(v["username"], "Awa_N");
    assert_eq!(awa.get("/api/account").await.0, StatusCode::OK);
}

#[tokio::test]
async fn bad_names_and_passwords_are_refused_and_nothing_is_made() {
    let app = new_app(Limits::unlimited()).await;
    let mut c = Client::new(&app);
    for (name, password) in [
        ("a", "long enough"),
        ("twenty-one-characters", "long enough"),
        ("Aïcha", "long enough"),
        ("awa ndiaye", "long enough"),
        ("awa", "short"),
    ] {
        let (status, v) = c.sign_up(name, password).await;
        assert_eq!(
            (status, code(&v)),
            (StatusCode::BAD_REQUEST, "bad_request"),
            "{name}"
        );
    }
    let (status, v) = c
        .post("/api/account/signup", Some(json!({"username": "awa"})))
        .await;
    assert_eq!(status, StatusCode::BAD_REQUEST, "{v}");
    assert_eq!(c.get("/api/account").await.0, StatusCode::UNAUTHORIZED);
    assert_eq!(
        c.log_in("awa", "long enough").await.0,
        StatusCode::UNAUTHORIZED
    );
}

#[tokio::test]
async fn an_unknown_name_and_a_wrong_password_get_the_same_answer() {
    let app = new_app(Limits::unlimited()).await;
    let mut c = Client::new(&app);
    c.sign_up("kofi", "correct horse").await;
    let wrong = c.log_in("kofi", "wrong horse").await;
    let unknown = c.log_in("nobody", "wrong horse").await;
    let invalid = c.log_in("not a name!", "wrong horse").await;
    assert_eq!(wrong, unknown);
    assert_eq!(wrong, invalid);
    assert_eq!(wrong.0, StatusCode::UNAUTHORIZED);
    assert_eq!(
        c.get("/api/users/nobody").await.0,
        StatusCode::NOT_FOUND,
        "a profile is public: its absence is no secret"
    );
}

#[tokio::test]
async fn log_ins_are_throttled_per_account_and_per_address() {
    let app = new_app(Limits {
        logins_per_name_per_minute: 3,
        logins_per_minute: 5,
        ..Limits::unlimited()
    })
    .await;
    let mut c = Client::new(&app);
    c.sign_up("kofi", "correct horse").await;
    for _ in 0..3 {
        assert_eq!(
            c.log_in("kofi", "wrong horse").await.0,
            StatusCode::UNAUTHORIZED
        );
    }
    // Even the right password waits now: guessing stops for everyone.
    let (status, v, retry) = c.log_in_raw("Kofi", "correct horse").await;
    assert_eq!(
        (status, code(&v)),
        (StatusCode::TOO_MANY_REQUESTS, "rate_limited")
    );
    assert!(retry.is_some_and(|s| s >= 1), "Retry-After: {retry:?}");
    // An unknown name is throttled the same way.
    for _ in 0..2 {
        c.log_in("ghost", "wrong horse").await;
    }
    // The address has made 5 tries: every name now waits.
    let (status, _, _) = c.log_in_raw("someone", "whatever pw").await;
    assert_eq!(status, StatusCode::TOO_MANY_REQUESTS);
}

/// A session (a stolen cookie, say) must not guess the account's password
/// through the routes that ask for it again, beyond what log-ins allow.
#[tokio::test]
async fn password_confirmations_are_throttled_as_log_ins() {
    let app = new_app(Limits {
        logins_per_name_per_minute: 3,
        ..Limits::unlimited()
    })
    .await;
    let mut c = Client::new(&app);
    c.sign_up("kofi", "correct horse").await;
    let change = json!({"password": "wrong horse", "new_password": "battery staple"});
    for _ in 0..2 {
        let (status, v) = c.post("/api/account/password", Some(change.clone())).await;
        assert_eq!(
            (status, code(&v)),
            (StatusCode::UNAUTHORIZED, "wrong_credentials")
        );
    }
    let guess = json!({"password": "wrong horse"});
    let (status, v) = c
        .request("DELETE", "/api/account", Some(guess.clone()), &[])
        .await;
    assert_eq!(
        (status, code(&v)),
        (StatusCode::UNAUTHORIZED, "wrong_credentials")
    );
    for (method, uri, body) in [
        ("POST", "/api/account/password", change),
        ("DELETE", "/api/account", guess),
    ] {
        let (status, v, retry) = c.send(method, uri, Some(body), &[]).await;
        assert_eq!(
            (status, code(&v)),
            (StatusCode::TOO_MANY_REQUESTS, "rate_limited"),
            "{method} {uri}"
        );
        assert!(retry.is_some_and(|s| s >= 1), "Retry-After: {retry:?}");
    }
    // Log-ins under that name wait too: one budget of guesses.
    assert_eq!(
        c.log_in("kofi", "correct horse").await.0,
        StatusCode::TOO_MANY_REQUESTS
    );
    assert_eq!(c.get("/api/account").await.0, StatusCode::OK);
}

#[tokio::test]
async fn a_write_with_the_cookie_from_another_site_is_refused() {
    let app = new_app(Limits::unlimited()).await;
    let mut c = Client::new(&app);
    c.sign_up("kofi", "correct horse").await;
    for origin in ["https://evil.example", "null"] {
        let (status, v) = c
            .request("POST", "/api/account/logout", None, &[("origin", origin)])
            .await;
        assert_eq!(
            (status, code(&v)),
            (StatusCode::FORBIDDEN, "csrf"),
            "{origin}"
        );
    }
    let (status, v) = c
        .request(
            "POST",
            "/api/games",
            Some(json!({"game": "yote", "opponent": "machine"})),
            &[("sec-fetch-site", "cross-site")],
        )
        .await;
    assert_eq!((status, code(&v)), (StatusCode::FORBIDDEN, "csrf"));
    // Still signed in, and no game was made for the account.
    assert_eq!(c.get("/api/account").await.0, StatusCode::OK);
    let (_, games) = c.get("/api/account/games").await;
    assert_eq!(games, json!([]));
    // The site's own page may.
    let (status, _) = c
        .request(
            "POST",
            "/api/account/logout",
            None,
            &[("origin", "http://palabre.test"), ("host", "palabre.test")],
        )
        .await;
    assert_eq!(status, StatusCode::NO_CONTENT);
}

#[tokio::test]
async fn a_signed_in_players_games_open_from_another_device() {
    let app = new_app(Limits::unlimited()).await;
    let mut phone = Client::new(&app);
    phone.sign_up("awa", "correct horse").await;
    let (status, v) = phone
        .post(
            "/api/games",
            Some(json!({"game": "yote", "opponent": "local"})),
        )
        .await;
    assert_eq!(status, StatusCode::CREATED, "{v}");
    let id = v["id"].as_str().unwrap().to_owned();

    // Another device: no seat, only the account.
    let mut laptop = Client::new(&app);
    laptop.log_in("awa", "correct horse").await;
    let (status, v) = laptop
        .post(
            &format!("/api/games/{id}/moves"),
            Some(json!({"move": "c3", "ply": 0})),
        )
        .await;
    assert_eq!(status, StatusCode::CREATED, "{v}");
    let (_, games) = laptop.get("/api/account/games").await;
    assert_eq!(games[0]["id"], id.as_str());
    assert_eq!(games[0]["moves"], 1);

    // Someone else's account, or a guest, may not.
    let mut guest = Client::new(&app);
    let (status, v) = guest
        .post(
            &format!("/api/games/{id}/moves"),
            Some(json!({"move": "c4", "ply": 1})),
        )
        .await;
    assert_eq!(
        (status, code(&v)),
        (StatusCode::UNAUTHORIZED, "missing_seat")
    );
    guest.sign_up("kofi", "correct horse").await;
    let (status, v) = guest
        .post(
            &format!("/api/games/{id}/moves"),
            Some(json!({"move": "c4", "ply": 1})),
        )
        .await;
    assert_eq!((status, code(&v)), (StatusCode::FORBIDDEN, "wrong_seat"));
}

#[tokio::test]
async fn a_new_password_ends_the_other_sessions() {
    let app = new_app(Limits::unlimited()).await;
    let mut a = Client::new(&app);
    a.sign_up("awa", "correct horse").await;
    let mut b = Client::new(&app);
    b.log_in("awa", "correct horse").await;
    let (status, v) = a
        .post(
            "/api/account/password",
            Some(json!({"password": "wrong horse", "new_password": "battery staple"})),
        )
        .await;
    assert_eq!(
        (status, code(&v)),
        (StatusCode::UNAUTHORIZED, "wrong_credentials")
    );
    let (status, _) = a
        .post(
            "/api/account/password",
            Some(json!({"password": "correct horse", "new_password": "battery staple"})),
        )
        .await;
    assert_eq!(status, StatusCode::NO_CONTENT);
    assert_eq!(a.get("/api/account").await.0, StatusCode::OK);
    assert_eq!(b.get("/api/account").await.0, StatusCode::UNAUTHORIZED);
    assert_eq!(
        b.log_in("awa", "correct horse").await.0,
        StatusCode::UNAUTHORIZED
    );
    assert_eq!(b.log_in("awa", "battery staple").await.0, StatusCode::OK);
}

on_both!(
    deleting_an_account_keeps_its_games_under_another_name,
    deletion
);

async fn deletion(app: axum::Router) {
    let mut awa = Client::new(&app);
    awa.sign_up("awa", "correct horse").await;
    let (_, v) = awa
        .post(
            "/api/games",
            Some(json!({"game": "yote", "opponent": "online", "side": "red"})),
        )
        .await;
    let id = v["id"].as_str().unwrap().to_owned();
    let mut guest = Client::new(&app);
    let (status, v) = guest
        .post(
            &format!("/api/games/{id}/join"),
            Some(json!({"name": "Kofi"})),
        )
        .await;
    assert_eq!(status, StatusCode::CREATED, "{v}");
    awa.post(
        &format!("/api/games/{id}/moves"),
        Some(json!({"move": "c3", "ply": 0})),
    )
    .await;

    let (status, v) = awa
        .request(
            "DELETE",
            "/api/account",
            Some(json!({"password": "nope nope"})),
            &[],
        )
        .await;
    assert_eq!(
        (status, code(&v)),
        (StatusCode::UNAUTHORIZED, "wrong_credentials")
    );
    let (status, _) = awa
        .request(
            "DELETE",
            "/api/account",
            Some(json!({"password": "correct horse"})),
            &[],
        )
        .await;
    assert_eq!(status, StatusCode::NO_CONTENT);
    assert_eq!(awa.get("/api/account").await.0, StatusCode::UNAUTHORIZED);
    assert_eq!(awa.get("/api/users/awa").await.0, StatusCode::NOT_FOUND);
    assert_eq!(
        awa.log_in("awa", "correct horse").await.0,
        StatusCode::UNAUTHORIZED
    );

    let (status, game) = guest.get(&format!("/api/games/{id}")).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(game["moves"], json!(["c3"]));
    assert_eq!(game["teams"]["red"][0]["name"], "[supprimé]");
    assert_eq!(game["teams"]["red"][0]["account"], false);
    assert_eq!(game["teams"]["black"][0]["name"], "Kofi");
    // The name is free again, and the new account has none of the old games.
    let mut again = Client::new(&app);
    assert_eq!(
        again.sign_up("awa", "new horse!").await.0,
        StatusCode::CREATED
    );
    assert_eq!(again.get("/api/account/games").await.1, json!([]));
}

on_both!(personal_tokens_act_for_the_account_until_revoked, tokens);

async fn tokens(app: axum::Router) {
    let mut awa = Client::new(&app);
    awa.sign_up("awa", "correct horse").await;
    let (status, v) = awa
        .post(
            "/api/account/tokens",
            Some(json!({"description": "my bot", "scopes": ["bot:play"]})),
        )
        .await;
    assert_eq!(status, StatusCode::CREATED, "{v}");
    let token = v["token"].as_str().unwrap().to_owned();
    let token_id = v["id"].as_str().unwrap().to_owned();
    let (_, list) = awa.get("/api/account/tokens").await;
    assert_eq!(list[0]["description"], "my bot");
    assert!(!list.to_string().contains(&token), "a token is shown once");

    let mut program = Client::new(&app);
    program.bearer = Some(token.clone());
    let (status, v) = program.get("/api/account").await;
    assert_eq!(status, StatusCode::OK, "{v}");
    assert_eq!(v["username"], "awa");
    let (status, _) = program
        .post(
            "/api/account/tokens",
            Some(json!({"description": "more", "scopes": ["bot:play"]})),
        )
        .await;
    assert_eq!(status, StatusCode::FORBIDDEN, "a token makes no tokens");
    let (status, v) = awa
        .post(
            "/api/account/tokens",
            Some(json!({"description": "x", "scopes": ["admin"]})),
        )
        .await;
    assert_eq!((status, code(&v)), (StatusCode::BAD_REQUEST, "bad_request"));

    let (status, _) = awa
        .request(
            "DELETE",
            &format!("/api/account/tokens/{token_id}"),
            None,
            &[],
        )
        .await;
    assert_eq!(status, StatusCode::NO_CONTENT);
    let (status, v) = program.get("/api/account").await;
    assert_eq!((status, code(&v)), (StatusCode::UNAUTHORIZED, "bad_token"));
}

#[tokio::test]
async fn the_export_holds_the_accounts_data() {
    let app = new_app(Limits::unlimited()).await;
    let mut awa = Client::new(&app);
    awa.sign_up("awa", "correct horse").await;
    awa.post(
        "/api/games",
        Some(json!({"game": "nsolo", "size": 10, "opponent": "machine"})),
    )
    .await;
    awa.post(
        "/api/account/tokens",
        Some(json!({"description": "bot", "scopes": ["bot:play"]})),
    )
    .await;
    let (status, v) = awa.get("/api/account/export").await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(v["username"], "awa");
    assert_eq!(v["games"].as_array().unwrap().len(), 1);
    assert_eq!(v["games"][0]["game"], "nsolo");
    assert_eq!(v["tokens"][0]["description"], "bot");
    assert!(!v.to_string().contains("argon2"), "no password hash");
    assert_eq!(
        Client::new(&app).get("/api/account/export").await.0,
        StatusCode::UNAUTHORIZED
    );
}

on_both!(tokens_made_at_once_stay_within_the_cap, tokens_made_at_once);

/// The cap of 20 tokens an account holds is kept when many are asked for at
/// once: each request used to count the tokens, then insert, so requests
/// racing past the count all made theirs.
async fn tokens_made_at_once(app: axum::Router) {
    let mut awa = Client::new(&app);
    awa.sign_up("awa", "correct horse").await;
    let asks = (0..40).map(|i| {
        let mut c = awa.clone();
        async move {
            let body = json!({"description": format!("bot {i}"), "scopes": ["bot:play"]});
            c.post("/api/account/tokens", Some(body)).await.0
        }
    });
    let statuses = futures_util::future::join_all(asks).await;
    let made = statuses
        .iter()
        .filter(|s| **s == StatusCode::CREATED)
        .count();
    let refused = statuses
        .iter()
        .filter(|s| **s == StatusCode::BAD_REQUEST)
        .count();
    assert_eq!((made, refused), (20, 20), "{statuses:?}");
    let (_, list) = awa.get("/api/account/tokens").await;
    assert_eq!(list.as_array().map(Vec::len), Some(20), "{list}");
}
