//! The pages and their assets, embedded in the binary from `web/`. A path
//! that names nothing, or a game that does not exist, gets the « Page
//! introuvable » page with a 404 (and the API's JSON error under `/api/`).
//!
//! Every page carries link-preview tags (Open Graph, Twitter) between
//! `<!-- og -->` and `<!-- /og -->`: the site's own on most pages, and on
//! the pages of one game, tags that name that game and point to the
//! picture of its position ([`crate::preview`]). Crawlers want absolute
//! URLs there, so the paths in `content="/…"` are prefixed with the site's
//! address ([`base_url`]).

use axum::Router;
use axum::extract::{Path, State};
use axum::http::{HeaderMap, StatusCode, Uri, header};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use rust_embed::RustEmbed;

use crate::error::AppError;
use crate::game::view;
use crate::preview;
use crate::state::AppState;

#[derive(RustEmbed)]
#[folder = "../../web/"]
#[exclude = "tests/*"]
#[exclude = "*/node_modules/*"]
struct Web;

/// Where the per-game tags go in a page, replacing the site's own.
const OG_START: &str = "<!-- og -->";
const OG_END: &str = "<!-- /og -->";

/// Serves the static page `$name`.
macro_rules! page {
    ($name:literal) => {
        get(|s: State<AppState>, h: HeaderMap| page(s, h, $name))
    };
}

/// Serves the page `$kind` of one game.
macro_rules! game_page {
    ($kind:expr) => {
        get(|s: State<AppState>, h: HeaderMap, id: Path<String>| game_page(s, h, id, $kind))
    };
}

pub fn router() -> Router<AppState> {
    Router::new()
        .route("/", page!("index.html"))
        .route("/nouvelle", page!("new.html"))
        .route("/new", page!("new.html"))
        .route("/yote/regles", page!("yote-rules.html"))
        .route("/yote/rules", page!("yote-rules.html"))
        .route("/nsolo/regles", page!("nsolo-rules.html"))
        .route("/nsolo/rules", page!("nsolo-rules.html"))
        .route("/partie/{id}", game_page!(GamePage::Play))
        .route("/game/{id}", game_page!(GamePage::Play))
        .route("/partie/{id}/rejoindre", game_page!(GamePage::Join))
        .route("/game/{id}/join", game_page!(GamePage::Join))
        .route("/partie/{id}/apercu.svg", get(preview_page))
        .route("/api/games/{id}/preview.svg", get(preview_api))
        .route("/salon", page!("lobby.html"))
        .route("/lobby", page!("lobby.html"))
        .route("/parties", page!("records.html"))
        .route("/games", page!("records.html"))
        .route("/parties/{id}", game_page!(GamePage::Replay))
        .route("/games/{id}", game_page!(GamePage::Replay))
        .route("/partie-locale", page!("game.html"))
        .route("/local-game", page!("game.html"))
        .route("/partie-locale/revoir", page!("replay.html"))
        .route("/local-game/replay", page!("replay.html"))
        .route("/mes-parties", page!("mine.html"))
        .route("/my-games", page!("mine.html"))
        .route("/connexion", page!("login.html"))
        .route("/login", page!("login.html"))
        .route("/inscription", page!("signup.html"))
        .route("/signup", page!("signup.html"))
        .route("/compte", page!("account.html"))
        .route("/account", page!("account.html"))
        .route("/classement", page!("leaderboard.html"))
        .route("/leaderboard", page!("leaderboard.html"))
        // Any name: the page asks /api/users/{name} and says « Joueur
        // introuvable » itself when there is no such player.
        .route("/joueur/{username}", page!("player.html"))
        .route("/player/{username}", page!("player.html"))
        .route("/assets/{*path}", get(asset))
}

fn file(path: &str, cache: &'static str) -> Response {
    match Web::get(path) {
        Some(f) => (
            [
                (header::CONTENT_TYPE, f.metadata.mimetype().to_owned()),
                (header::CACHE_CONTROL, cache.to_owned()),
            ],
            f.data.into_owned(),
        )
            .into_response(),
        None => (StatusCode::NOT_FOUND, "not found").into_response(),
    }
}

/// The text of page `name` with `tags` in place of the site's own
/// link-preview tags, and its paths made absolute under `base`.
fn render(name: &str, base: Option<&str>, tags: Option<&str>) -> Option<String> {
    let f = Web::get(name)?;
    let text = String::from_utf8_lossy(&f.data);
    let text = match tags {
        Some(tags) => with_tags(&text, tags),
        None => text.into_owned(),
    };
    Some(absolute(&text, base))
}

/// Page `name` (the 404 page if there is no such file yet).
fn html(name: &str, base: Option<&str>, tags: Option<&str>) -> Response {
    match render(name, base, tags) {
        Some(text) => (
            [
                (header::CONTENT_TYPE, "text/html; charset=utf-8"),
                (header::CACHE_CONTROL, "no-cache"),
            ],
            text,
        )
            .into_response(),
        None => not_found_page(base),
    }
}

/// The site's address for absolute URLs in link previews: the first origin
/// the server was given (`--origin https://palabre.example`, the name it is
/// reached by), else the request's own `Host` (with `https` when a proxy
/// says so in `X-Forwarded-Proto`). A host that is not a plain name or
/// address is not repeated: the paths then stay relative.
pub fn base_url(app: &AppState, headers: &HeaderMap) -> Option<String> {
    if let Some(origin) = app.guards.limits.origins.first() {
        return Some(origin.trim_end_matches('/').to_owned());
    }
    let host = headers.get(header::HOST)?.to_str().ok()?;
    let plain = !host.is_empty()
        && host.len() <= 255
        && host
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b".-:[]_".contains(&b));
    if !plain {
        return None;
    }
    let https = headers
        .get("x-forwarded-proto")
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v.trim().eq_ignore_ascii_case("https"));
    Some(format!("{}://{host}", if https { "https" } else { "http" }))
}

/// Makes the root-relative `content` of the head's meta tags absolute (the
/// body is left as written).
fn absolute(html: &str, base: Option<&str>) -> String {
    let Some(base) = base else {
        return html.to_owned();
    };
    let split = html.find("</head>").unwrap_or(html.len());
    let (head, body) = html.split_at(split);
    let prefix = format!("content=\"{}/", preview::escape(base));
    let mut out = String::with_capacity(html.len() + 512);
    let mut rest = head;
    while let Some(at) = rest.find("content=\"/") {
        out.push_str(&rest[..at]);
        let path = &rest[at + "content=\"/".len()..];
        // A protocol-relative address already names its host.
        if path.starts_with('/') {
            out.push_str("content=\"/");
        } else {
            out.push_str(&prefix);
        }
        rest = path;
    }
    out.push_str(rest);
    out.push_str(body);
    out
}

async fn page(State(app): State<AppState>, headers: HeaderMap, name: &'static str) -> Response {
    html(name, base_url(&app, &headers).as_deref(), None)
}

fn not_found_page(base: Option<&str>) -> Response {
    let text = render("404.html", base, None).unwrap_or_else(|| "Page introuvable".to_owned());
    (
        StatusCode::NOT_FOUND,
        [
            (header::CONTENT_TYPE, "text/html; charset=utf-8"),
            (header::CACHE_CONTROL, "no-cache"),
        ],
        text,
    )
        .into_response()
}

/// The pages about one game.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum GamePage {
    /// `/partie/{id}`: the board.
    Play,
    /// `/partie/{id}/rejoindre`: the invitation.
    Join,
    /// `/parties/{id}`: the replay.
    Replay,
}

impl GamePage {
    fn file(self) -> &'static str {
        match self {
            GamePage::Play => "game.html",
            GamePage::Join => "join.html",
            GamePage::Replay => "replay.html",
        }
    }

    /// The page's French path, the one a shared link names.
    fn path(self, id: &str) -> String {
        match self {
            GamePage::Play => format!("/partie/{id}"),
            GamePage::Join => format!("/partie/{id}/rejoindre"),
            GamePage::Replay => format!("/parties/{id}"),
        }
    }

    /// « Yoté — partie en ligne · Palabre ».
    fn title(self, s: &view::State) -> String {
        let what = match self {
            GamePage::Play => preview::mode(s).to_owned(),
            GamePage::Join => "invitation à jouer en ligne".to_owned(),
            GamePage::Replay => format!("revoir la partie ({})", preview::mode(s)),
        };
        format!("{} — {what} · Palabre", preview::game_name(s))
    }
}

/// The link-preview tags of one game's page (paths root-relative, made
/// absolute afterwards with the rest).
fn game_tags(kind: GamePage, s: &view::State) -> String {
    let e = preview::escape;
    let title = e(&kind.title(s));
    let description = e(&preview::description(s));
    let alt = e(&preview::alt(s));
    let url = e(&kind.path(&s.id));
    // The ply in the picture's address: a crawler that keeps pictures by
    // address fetches the new position after a move.
    let image = format!("/partie/{}/apercu.svg?coup={}", e(&s.id), s.ply);
    let (w, h) = (preview::WIDTH, preview::HEIGHT);
    format!(
        r#"{OG_START}
<meta name="description" content="{description}">
<meta property="og:site_name" content="Palabre">
<meta property="og:locale" content="fr_FR">
<meta property="og:locale:alternate" content="en_GB">
<meta property="og:type" content="website">
<meta property="og:title" content="{title}">
<meta property="og:description" content="{description}">
<meta property="og:url" content="{url}">
<meta property="og:image" content="{image}">
<meta property="og:image:type" content="image/svg+xml">
<meta property="og:image:width" content="{w}">
<meta property="og:image:height" content="{h}">
<meta property="og:image:alt" content="{alt}">
<meta name="twitter:card" content="summary_large_image">
<meta name="twitter:title" content="{title}">
<meta name="twitter:description" content="{description}">
<meta name="twitter:image" content="{image}">
<meta name="twitter:image:alt" content="{alt}">
{OG_END}"#
    )
}

/// `html` with its link-preview block replaced by `tags`.
fn with_tags(html: &str, tags: &str) -> String {
    let block = html.find(OG_START).and_then(|start| {
        let end = start + html[start..].find(OG_END)? + OG_END.len();
        Some((start, end))
    });
    match block {
        Some((start, end)) => format!("{}{tags}{}", &html[..start], &html[end..]),
        // A page without the block still gets its tags, at the end of the head.
        None => html.replacen("</head>", &format!("{tags}\n</head>"), 1),
    }
}

/// A page about one game, with that game's link-preview tags, or the 404
/// page if there is no such game (a database that cannot answer lets the
/// page say so itself, with the site's own tags).
async fn game_page(
    State(app): State<AppState>,
    headers: HeaderMap,
    Path(id): Path<String>,
    kind: GamePage,
) -> Response {
    let base = base_url(&app, &headers);
    let base = base.as_deref();
    match app.games.exists(&id).await {
        Ok(false) => return not_found_page(base),
        Ok(true) => {}
        Err(_) => return html(kind.file(), base, None),
    }
    match preview::snapshot(&app.games, &id).await {
        Ok(state) => html(kind.file(), base, Some(&game_tags(kind, &state))),
        Err(AppError::NotFound) => not_found_page(base),
        Err(_) => html(kind.file(), base, None),
    }
}

/// The picture of game `id`'s position, or why there is none.
async fn picture(app: &AppState, id: &str) -> Result<Response, AppError> {
    if !app.games.exists(id).await? {
        return Err(AppError::NotFound);
    }
    let state = preview::snapshot(&app.games, id).await?;
    Ok((
        [
            (header::CONTENT_TYPE, "image/svg+xml"),
            (header::CACHE_CONTROL, preview::cache_control(&state)),
        ],
        preview::svg(&state),
    )
        .into_response())
}

async fn preview_page(
    State(app): State<AppState>,
    headers: HeaderMap,
    Path(id): Path<String>,
) -> Response {
    match picture(&app, &id).await {
        Ok(res) => res,
        Err(AppError::NotFound) => not_found_page(base_url(&app, &headers).as_deref()),
        Err(e) => e.into_response(),
    }
}

async fn preview_api(
    State(app): State<AppState>,
    crate::api::Path(id): crate::api::Path<String>,
) -> Result<Response, AppError> {
    picture(&app, &id).await
}

/// Whatever no route serves: the API's `not_found`, or the 404 page.
pub async fn fallback(State(app): State<AppState>, headers: HeaderMap, uri: Uri) -> Response {
    if uri.path().starts_with("/api/") {
        AppError::NotFound.into_response()
    } else {
        not_found_page(base_url(&app, &headers).as_deref())
    }
}

async fn asset(Path(path): Path<String>) -> Response {
    file(&format!("assets/{path}"), "public, max-age=300")
}

/// Every embedded file of `web/`: its path there and the sha256 of its
/// content, from which [`crate::pwa`] makes the service worker's version
/// and the list of files it keeps.
pub(crate) fn embedded() -> impl Iterator<Item = (String, [u8; 32])> {
    Web::iter().filter_map(|path| {
        let sha256 = Web::get(&path)?.metadata.sha256_hash();
        Some((path.into_owned(), sha256))
    })
}

/// The content of the embedded file `path` of `web/` (the service worker's
/// template, the manifest).
pub(crate) fn embedded_file(path: &str) -> Option<std::borrow::Cow<'static, [u8]>> {
    Web::get(path).map(|f| f.data)
}
