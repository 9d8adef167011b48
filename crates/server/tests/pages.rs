//! The pages as a link preview reads them, called on the router directly:
//! the Open Graph tags of a game's pages, the picture of its position, the
//! site's own tags and icons on the other pages, and the escaping of what
//! players and requests bring.

use axum::Router;
use axum::body::Body;
use axum::http::{Request, StatusCode, header};
use http_body_util::BodyExt;
use palabre_server::{AppState, Config, Limits, app};
use serde_json::{Value, json};
use tower::ServiceExt;

const HOST: &str = "palabre.test:8080";

async fn router_with(origins: Vec<String>) -> Router {
    let config = Config {
        limits: Limits {
            origins,
            ..Limits::unlimited()
        },
        ..Config::testing()
    };
    app(AppState::open(&config).await.unwrap())
}

async fn router() -> Router {
    router_with(Vec::new()).await
}

/// A GET with these headers: the status, the headers and the body as text.
async fn get(
    app: &Router,
    uri: &str,
    headers: &[(&str, &str)],
) -> (StatusCode, axum::http::HeaderMap, String) {
    let mut req = Request::get(uri);
    for (k, v) in headers {
        req = req.header(*k, *v);
    }
    let res = app
        .clone()
        .oneshot(req.body(Body::empty()).unwrap())
        .await
        .unwrap();
    let status = res.status();
    let headers = res.headers().clone();
    let bytes = res.into_body().collect().await.unwrap().to_bytes();
    (
        status,
        headers,
        String::from_utf8_lossy(&bytes).into_owned(),
    )
}

async fn post(app: &Router, uri: &str, seat: Option<&str>, body: Value) -> Value {
    let mut req = Request::post(uri).header(header::CONTENT_TYPE, "application/json");
    if let Some(seat) = seat {
        req = req.header(header::AUTHORIZATION, format!("Bearer {seat}"));
    }
    let res = app
        .clone()
        .oneshot(req.body(Body::from(body.to_string())).unwrap())
        .await
        .unwrap();
    let bytes = res.into_body().collect().await.unwrap().to_bytes();
    serde_json::from_slice(&bytes).unwrap()
}

/// A new game: its id and seat.
async fn create(app: &Router, body: Value) -> (String, String) {
    let v = post(app, "/api/games", None, body).await;
    (
        v["id"].as_str().expect("created").to_owned(),
        v["seat"].as_str().expect("a seat").to_owned(),
    )
}

/// The `content` of the meta tag `property` (or `name`) in `html`.
fn meta<'a>(html: &'a str, property: &str) -> Option<&'a str> {
    [
        format!(r#"property="{property}" content=""#),
        format!(r#"name="{property}" content=""#),
    ]
    .iter()
    .find_map(|key| {
        let start = html.find(key.as_str())? + key.len();
        html[start..].split('"').next()
    })
}

fn count(text: &str, what: &str) -> usize {
    text.matches(what).count()
}

/// Whether `xml` is well formed as far as a link preview needs: one root
/// `<svg>`, every element closed in order, no stray `<` or `&`.
fn well_formed(xml: &str) -> Result<(), String> {
    let mut open: Vec<&str> = Vec::new();
    let mut rest = xml;
    let mut roots = 0;
    while let Some(lt) = rest.find('<') {
        let text = &rest[..lt];
        check_entities(text)?;
        let gt = rest[lt..]
            .find('>')
            .ok_or_else(|| "a tag is never closed".to_owned())?;
        let tag = &rest[lt + 1..lt + gt];
        if tag.contains('<') {
            return Err(format!("a `<` inside the tag `{tag}`"));
        }
        if let Some(name) = tag.strip_prefix('/') {
            let top = open
                .pop()
                .ok_or_else(|| format!("`</{name}>` closes nothing"))?;
            if top != name.trim() {
                return Err(format!("`</{name}>` closes `<{top}>`"));
            }
        } else {
            let name = tag.split_whitespace().next().unwrap_or_default();
            if open.is_empty() {
                roots += 1;
                if name != "svg" {
                    return Err(format!("the root is `<{name}>`"));
                }
            }
            for value in tag.split('"').skip(1).step_by(2) {
                check_entities(value)?;
            }
            if !tag.ends_with('/') {
                open.push(name);
            }
        }
        rest = &rest[lt + gt + 1..];
    }
    if !open.is_empty() {
        return Err(format!("unclosed: {open:?}"));
    }
    if roots != 1 {
        return Err(format!("{roots} root elements"));
    }
    check_entities(rest)
}

fn check_entities(text: &str) -> Result<(), String> {
    for (i, _) in text.match_indices('&') {
        let entity = text[i..].split(';').next().unwrap_or_default();
        let known = ["&amp", "&lt", "&gt", "&quot", "&#39", "&#160"];
        if !known.contains(&entity) {
            return Err(format!("a bare `&` in `{text}`"));
        }
    }
    Ok(())
}

#[tokio::test]
async fn a_game_page_names_the_game_and_points_to_its_preview() {
    let app = router().await;
    let (id, seat) = create(&app, json!({"game": "yote", "opponent": "local"})).await;
    post(
        &app,
        &format!("/api/games/{id}/moves"),
        Some(&seat),
        json!({"move": "c3", "ply": 0}),
    )
    .await;
    let (status, headers, html) = get(&app, &format!("/partie/{id}"), &[("host", HOST)]).await;
    assert_eq!(status, StatusCode::OK);
    assert!(
        headers[header::CONTENT_TYPE]
            .to_str()
            .unwrap()
            .starts_with("text/html")
    );
    assert_eq!(
        meta(&html, "og:title"),
        Some("Yoté — à deux sur un écran · Palabre")
    );
    let description = meta(&html, "og:description").unwrap();
    assert!(
        description.contains("1\u{a0}coup joué, aux Noires de jouer"),
        "{description}"
    );
    assert_eq!(meta(&html, "description"), Some(description));
    assert_eq!(
        meta(&html, "og:url"),
        Some(format!("http://{HOST}/partie/{id}").as_str())
    );
    let image = format!("http://{HOST}/partie/{id}/apercu.svg?coup=1");
    assert_eq!(meta(&html, "og:image"), Some(image.as_str()));
    assert_eq!(meta(&html, "og:image:type"), Some("image/svg+xml"));
    assert_eq!(meta(&html, "og:type"), Some("website"));
    assert_eq!(meta(&html, "twitter:card"), Some("summary_large_image"));
    assert_eq!(meta(&html, "twitter:image"), Some(image.as_str()));
    assert_eq!(
        count(&html, r#"property="og:title""#),
        1,
        "the site's own tags made way for the game's"
    );
    assert!(html.contains(r#"<link rel="apple-touch-icon""#));
    assert!(html.contains(r#"<script type="module" src="/assets/js/game.js">"#));

    // The invitation and the replay name the game too, and so do their
    // English paths, which share the French address.
    for (path, url, words) in [
        (
            format!("/partie/{id}/rejoindre"),
            format!("/partie/{id}/rejoindre"),
            "invitation",
        ),
        (
            format!("/game/{id}/join"),
            format!("/partie/{id}/rejoindre"),
            "invitation",
        ),
        (format!("/parties/{id}"), format!("/parties/{id}"), "revoir"),
        (format!("/games/{id}"), format!("/parties/{id}"), "revoir"),
        (format!("/game/{id}"), format!("/partie/{id}"), "écran"),
    ] {
        let (status, _, html) = get(&app, &path, &[("host", HOST)]).await;
        assert_eq!(status, StatusCode::OK, "{path}");
        let title = meta(&html, "og:title").unwrap();
        assert!(
            title.starts_with("Yoté — ") && title.contains(words),
            "{path}: {title}"
        );
        assert_eq!(
            meta(&html, "og:url"),
            Some(format!("http://{HOST}{url}").as_str())
        );
        assert_eq!(meta(&html, "og:image"), Some(image.as_str()), "{path}");
    }

    let (nsolo, _) = create(
        &app,
        json!({"game": "nsolo", "size": 12, "opponent": "machine", "side": "south", "level": "expert"}),
    )
    .await;
    let (_, _, html) = get(&app, &format!("/partie/{nsolo}"), &[("host", HOST)]).await;
    assert_eq!(
        meta(&html, "og:title"),
        Some("Nsolo 4\u{a0}×\u{a0}12 — contre la machine · Palabre")
    );
    let description = meta(&html, "og:description").unwrap();
    assert!(description.contains("niveau Expert"), "{description}");
    assert!(description.contains("Sud 46, Nord 46"), "{description}");
}

#[tokio::test]
async fn the_preview_draws_the_position() {
    let app = router().await;
    let (id, seat) = create(&app, json!({"game": "yote", "opponent": "local"})).await;
    for (ply, m) in ["c3", "c4", "d3"].into_iter().enumerate() {
        post(
            &app,
            &format!("/api/games/{id}/moves"),
            Some(&seat),
            json!({"move": m, "ply": ply}),
        )
        .await;
    }
    for uri in [
        format!("/partie/{id}/apercu.svg"),
        format!("/api/games/{id}/preview.svg?coup=3"),
    ] {
        let (status, headers, svg) = get(&app, &uri, &[]).await;
        assert_eq!(status, StatusCode::OK, "{uri}");
        assert_eq!(headers[header::CONTENT_TYPE], "image/svg+xml");
        assert_eq!(headers[header::CACHE_CONTROL], "public, max-age=30");
        well_formed(&svg).unwrap();
        assert!(
            svg.starts_with(r#"<svg xmlns="http://www.w3.org/2000/svg" width="1200" height="630""#)
        );
        assert!(svg.contains(">Yoté</text>"));
        assert!(svg.contains("Aux Noires de jouer"));
        // Two red balls and one black on the board, the rest in reserve.
        assert_eq!(count(&svg, r#"class="ball red" data-at="#), 2);
        assert_eq!(count(&svg, r#"class="ball black" data-at="#), 1);
        for sq in ["c3", "d3", "c4"] {
            assert_eq!(count(&svg, &format!(r#"data-at="{sq}""#)), 1, "{sq}");
        }
        assert_eq!(count(&svg, r#"class="ball red" data-in="reserve""#), 10);
        assert_eq!(count(&svg, r#"class="ball black" data-in="reserve""#), 11);
        assert_eq!(count(&svg, r#"data-in="captured""#), 0);
    }

    // A finished game keeps its picture longer.
    post(
        &app,
        &format!("/api/games/{id}/resign"),
        Some(&seat),
        json!({"side": "black"}),
    )
    .await;
    let (_, headers, svg) = get(&app, &format!("/partie/{id}/apercu.svg"), &[]).await;
    assert!(svg.contains("Victoire des Rouges (abandon)"), "{svg}");
    assert_eq!(headers[header::CACHE_CONTROL], "public, max-age=86400");

    // Nsolo: every pit with its count, on the largest board too.
    for size in [8u32, 36] {
        let (id, _) = create(
            &app,
            json!({"game": "nsolo", "size": size, "opponent": "local"}),
        )
        .await;
        let (status, _, svg) = get(&app, &format!("/partie/{id}/apercu.svg"), &[]).await;
        assert_eq!(status, StatusCode::OK);
        well_formed(&svg).unwrap();
        assert_eq!(count(&svg, r#"class="pit""#), 4 * size as usize);
        let stones: u32 = svg
            .split(r#"data-count=""#)
            .skip(1)
            .map(|s| s.split('"').next().unwrap().parse::<u32>().unwrap())
            .sum();
        let state = get(&app, &format!("/api/games/{id}"), &[]).await.2;
        let state: Value = serde_json::from_str(&state).unwrap();
        let expected: u64 = ["south", "north"]
            .iter()
            .map(|s| state["nsolo"]["stones"][s].as_u64().unwrap())
            .sum();
        assert_eq!(u64::from(stones), expected, "4×{size}");
        assert!(svg.contains(&format!("4&#160;×&#160;{size}")));
    }
}

#[tokio::test]
async fn hostile_names_and_hosts_are_escaped() {
    let app = router().await;
    let hostile = r#""><script>alert(1)</script>&"#;
    let v = post(
        &app,
        "/api/games",
        None,
        json!({"game": "yote", "opponent": "online", "side": "red", "name": hostile}),
    )
    .await;
    let id = v["id"].as_str().unwrap().to_owned();
    post(
        &app,
        &format!("/api/games/{id}/join"),
        None,
        json!({"name": "O'Neil & <b>Kofi</b>"}),
    )
    .await;
    for path in [format!("/partie/{id}"), format!("/partie/{id}/rejoindre")] {
        let (status, _, html) = get(&app, &path, &[("host", HOST)]).await;
        assert_eq!(status, StatusCode::OK);
        assert!(!html.contains("<script>alert"), "{html}");
        assert!(!html.contains("<b>Kofi"), "{html}");
        let description = meta(&html, "og:description").unwrap();
        assert!(
            description.contains("&quot;&gt;&lt;script&gt;alert(1)&lt;/script&gt;&amp; (Rouges)"),
            "{description}"
        );
        assert!(
            description.contains("O&#39;Neil &amp; &lt;b&gt;Kofi&lt;/b&gt; (Noires)"),
            "{description}"
        );
        // Every tag of the block still ends where it should.
        let block = html.split("<!-- og -->").nth(1).unwrap();
        let block = block.split("<!-- /og -->").next().unwrap();
        for line in block.lines().filter(|l| !l.is_empty()) {
            assert!(
                line.starts_with("<meta ") && line.ends_with("\">") && count(line, "\"") == 4,
                "{line}"
            );
        }
    }
    let (_, _, svg) = get(&app, &format!("/partie/{id}/apercu.svg"), &[]).await;
    well_formed(&svg).unwrap();
    assert!(!svg.contains("<script"));
    assert!(
        svg.contains("&quot;&gt;&lt;script&gt;alert(1…<"),
        "the name is cut and escaped"
    );

    // A Host that is not a plain name is not repeated: the paths stay relative.
    let (_, _, html) = get(
        &app,
        &format!("/partie/{id}"),
        &[("host", r#"x"><script>"#)],
    )
    .await;
    assert!(!html.contains("<script>"));
    assert_eq!(
        meta(&html, "og:image"),
        Some(format!("/partie/{id}/apercu.svg?coup=0").as_str())
    );
}

#[tokio::test]
async fn absolute_addresses_follow_the_configured_origin_or_the_proxy() {
    let app = router_with(vec!["https://palabre.example/".into()]).await;
    let (id, _) = create(&app, json!({"game": "yote", "opponent": "local"})).await;
    let (_, _, html) = get(&app, &format!("/partie/{id}"), &[("host", "10.0.0.5:8080")]).await;
    assert_eq!(
        meta(&html, "og:image"),
        Some(format!("https://palabre.example/partie/{id}/apercu.svg?coup=0").as_str())
    );
    let (_, _, html) = get(&app, "/", &[("host", "10.0.0.5:8080")]).await;
    assert_eq!(
        meta(&html, "og:image"),
        Some("https://palabre.example/assets/img/og-palabre.jpg")
    );

    let app = router().await;
    let (_, _, html) = get(
        &app,
        "/yote/regles",
        &[("host", "palabre.example"), ("x-forwarded-proto", "https")],
    )
    .await;
    assert_eq!(
        meta(&html, "og:url"),
        Some("https://palabre.example/yote/regles")
    );
}

#[tokio::test]
async fn every_page_carries_the_site_tags_and_icons() {
    let app = router().await;
    for path in [
        "/",
        "/nouvelle",
        "/new",
        "/yote/regles",
        "/yote/rules",
        "/nsolo/regles",
        "/nsolo/rules",
        "/salon",
        "/lobby",
        "/parties",
        "/games",
        "/connexion",
        "/login",
        "/inscription",
        "/signup",
        "/compte",
        "/account",
        "/classement",
        "/leaderboard",
        "/joueur/Awa",
        "/player/Awa",
    ] {
        let (status, headers, html) = get(&app, path, &[("host", HOST)]).await;
        assert_eq!(status, StatusCode::OK, "{path}");
        assert_eq!(headers[header::CACHE_CONTROL], "no-cache");
        assert!(
            meta(&html, "og:title").is_some_and(|t| t.contains("Palabre")),
            "{path}"
        );
        assert!(meta(&html, "og:description").is_some(), "{path}");
        assert_eq!(
            meta(&html, "og:image"),
            Some(format!("http://{HOST}/assets/img/og-palabre.jpg").as_str()),
            "{path}"
        );
        assert!(
            meta(&html, "og:url").is_some_and(|u| u.starts_with(&format!("http://{HOST}/"))),
            "{path}"
        );
        assert_eq!(meta(&html, "twitter:card"), Some("summary_large_image"));
        assert!(html.contains(r#"<link rel="icon" href="/assets/img/favicon.svg""#));
        assert!(
            html.contains(
                r#"<link rel="apple-touch-icon" href="/assets/img/apple-touch-icon.png">"#
            )
        );
    }
    let (status, _, html) = get(&app, "/nulle-part", &[]).await;
    assert_eq!(status, StatusCode::NOT_FOUND);
    assert!(html.contains(r#"property="og:title""#) && html.contains("apple-touch-icon"));
    for (path, kind) in [
        ("/assets/img/favicon.svg", "image/svg+xml"),
        ("/assets/img/apple-touch-icon.png", "image/png"),
        ("/assets/img/og-palabre.jpg", "image/jpeg"),
    ] {
        let (status, headers, _) = get(&app, path, &[]).await;
        assert_eq!(status, StatusCode::OK, "{path}");
        assert_eq!(headers[header::CONTENT_TYPE], kind, "{path}");
    }
}

#[tokio::test]
async fn my_games_has_a_french_and_an_english_path() {
    let app = router().await;
    let written =
        std::path::Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/../../web/mine.html")).exists();
    for path in ["/mes-parties", "/my-games"] {
        let (status, _, _) = get(&app, path, &[]).await;
        let expected = if written {
            StatusCode::OK
        } else {
            StatusCode::NOT_FOUND
        };
        assert_eq!(status, expected, "{path}");
    }
}

#[tokio::test]
async fn unknown_games_have_no_page_and_no_preview() {
    let app = router().await;
    for uri in [
        "/partie/000000000000",
        "/partie/000000000000/rejoindre",
        "/parties/000000000000",
        "/game/000000000000",
        "/partie/000000000000/apercu.svg",
        "/partie/nope/apercu.svg",
    ] {
        let (status, _, body) = get(&app, uri, &[]).await;
        assert_eq!(status, StatusCode::NOT_FOUND, "{uri}");
        assert!(body.contains("Page introuvable"), "{uri}");
    }
    let (status, _, body) = get(&app, "/api/games/000000000000/preview.svg", &[]).await;
    assert_eq!(status, StatusCode::NOT_FOUND);
    let v: Value = serde_json::from_str(&body).unwrap();
    assert_eq!(v["error"]["code"], "not_found");
}

#[tokio::test]
async fn the_account_pages_have_a_french_and_an_english_path() {
    let app = router().await;
    for (paths, script) in [
        (["/connexion", "/login"], "auth.js"),
        (["/inscription", "/signup"], "auth.js"),
        (["/compte", "/account"], "account.js"),
        (["/classement", "/leaderboard"], "leaderboard.js"),
    ] {
        let mut pages = Vec::new();
        for path in paths {
            let (status, headers, html) = get(&app, path, &[]).await;
            assert_eq!(status, StatusCode::OK, "{path}");
            assert!(
                headers[header::CONTENT_TYPE]
                    .to_str()
                    .unwrap()
                    .starts_with("text/html"),
                "{path}"
            );
            assert!(
                html.contains(&format!(r#"src="/assets/js/{script}""#)),
                "{path}"
            );
            assert!(
                html.contains(r#"src="/assets/js/account-menu.js""#),
                "{path}"
            );
            pages.push(html);
        }
        assert_eq!(pages[0], pages[1], "{paths:?} serve the same page");
    }
}

#[tokio::test]
async fn a_profile_page_is_served_for_any_name_and_says_itself_who_is_missing() {
    let app = router().await;
    // The page asks /api/users/{name}: a name nobody has still gets the
    // page, which says « Joueur introuvable » once the API answers 404.
    for path in [
        "/joueur/Awa",
        "/player/Awa",
        "/joueur/personne",
        "/joueur/Kofi_7",
        "/joueur/%C3%A9t%C3%A9",
    ] {
        let (status, _, html) = get(&app, path, &[]).await;
        assert_eq!(status, StatusCode::OK, "{path}");
        assert!(html.contains(r#"src="/assets/js/player.js""#), "{path}");
        assert!(html.contains("Joueur introuvable"), "{path}");
    }
    let (status, _, body) = get(&app, "/api/users/personne", &[]).await;
    assert_eq!(status, StatusCode::NOT_FOUND);
    let v: Value = serde_json::from_str(&body).unwrap();
    assert_eq!(v["error"]["code"], "not_found");
    // No name, no profile.
    let (status, _, body) = get(&app, "/joueur/", &[]).await;
    assert_eq!(status, StatusCode::NOT_FOUND);
    assert!(body.contains("Page introuvable"));
}

#[tokio::test]
async fn every_page_links_the_leaderboard_and_the_account_menu() {
    let dir = std::path::Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/../../web"));
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_none_or(|e| e != "html") {
            continue;
        }
        let html = std::fs::read_to_string(&path).unwrap();
        let name = path.display();
        assert!(
            html.contains(r#"<a href="/classement""#),
            "{name}: no « Classement » in the nav"
        );
        assert!(
            html.contains(r#"src="/assets/js/account-menu.js""#),
            "{name}: no account menu"
        );
        assert!(html.contains(r#"<div class="tools">"#), "{name}");
    }
}
