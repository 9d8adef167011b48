//! The API described: an OpenAPI 3.1 document made at compile time from the
//! handlers' own `#[utoipa::path]` annotations and the `ToSchema` types of
//! their bodies (utoipa), and a page to read it.
//!
//! - `GET /api/openapi.json`: the document ([`ApiDoc`]).
//! - `GET /api/docs`: a page of ours that loads Swagger UI, whose files
//!   come embedded in the binary from the `swagger-ui-dist` crate (no CDN:
//!   the CSP and offline use forbid one), and starts it with a script of
//!   ours, `/api/docs/init.js` (the CSP allows no inline script).
//!
//! `crates/server/tests/openapi.rs` fails when a route of the router under
//! `/api/` is missing from the document; `crates/cli/tests/schemathesis.rs`
//! fuzzes a running server with it (docs/openapi.md).

pub mod shapes;

use std::sync::LazyLock;

use axum::Router;
use axum::extract::Request;
use axum::http::{HeaderValue, header};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use tower::ServiceExt;
use utoipa::openapi::header::HeaderBuilder;
use utoipa::openapi::security::{ApiKey, ApiKeyValue, HttpAuthScheme, HttpBuilder, SecurityScheme};
use utoipa::openapi::{ContentBuilder, Ref, RefOr, ResponseBuilder};
use utoipa::{Modify, OpenApi, ToResponse};

use crate::state::AppState;

/// Where the document is served.
pub const DOCUMENT_PATH: &str = "/api/openapi.json";
/// Where the page that shows it is served.
pub const DOCS_PATH: &str = "/api/docs";

/// The whole HTTP API.
#[derive(Debug, OpenApi)]
#[openapi(
    info(
        title = "Palabre",
        description = "Yoté and Nsolo against the machine, on one screen or online: \
            games, the live socket, lists and records, accounts, ratings, and the Bot API. \
            Every error is `{\"error\": {\"code\", \"message\", \"details\"?}}`.",
        license(name = "MIT"),
    ),
    paths(
        crate::api::create,
        crate::api::read,
        crate::api::join,
        crate::api::play_move,
        crate::api::resign,
        crate::api::draw,
        crate::api::abort,
        crate::api::start,
        crate::api::take_back,
        crate::api::rematch_route,
        crate::api::hint,
        crate::live::upgrade,
        preview_svg,
        crate::archive::replay,
        crate::archive::export,
        crate::archive::import,
        crate::lobby::lobby,
        crate::lobby::records,
        crate::upload::upload,
        crate::status::status,
        crate::endgame_tables::available,
        crate::endgame_tables::probe,
        crate::accounts::routes::me,
        crate::accounts::routes::session_account,
        crate::accounts::routes::delete_account,
        crate::accounts::routes::signup,
        crate::accounts::routes::login,
        crate::accounts::routes::logout,
        crate::accounts::routes::change_password,
        crate::accounts::routes::export,
        crate::accounts::routes::my_games,
        crate::accounts::routes::tokens,
        crate::accounts::routes::create_token,
        crate::accounts::routes::revoke_token,
        crate::players::profile,
        crate::players::leaderboards,
        crate::players::leaderboard,
        crate::bot::events::stream,
        crate::bot::challenges::create,
        crate::bot::challenges::show,
        crate::bot::challenges::accept,
        crate::bot::challenges::decline,
        crate::bot::challenges::cancel,
        crate::bot::play::upgrade,
        crate::bot::play::game_stream,
        crate::bot::play::play_move,
        crate::bot::play::resign,
        crate::bot::play::draw,
        document,
        page,
        init_script,
        swagger_css,
        swagger_js,
    ),
    components(
        schemas(shapes::ErrorBody),
        responses(ApiError),
    ),
    modifiers(&Security, &OptionalBodies),
    tags(
        (name = "games", description = "Create, join, read and play a game"),
        (name = "live", description = "The live socket of a game"),
        (name = "records", description = "Replays, exports, imports and uploads of records"),
        (name = "lists", description = "The lobby and the finished games"),
        (name = "status", description = "The server's load"),
        (name = "tables", description = "The Yoté endgame tables, where the server has them"),
        (name = "accounts", description = "Sign up, log in, one's account and tokens"),
        (name = "players", description = "Profiles and leaderboards"),
        (name = "bot", description = "The Bot API: events, challenges, a bot's games"),
        (name = "docs", description = "This document and its page"),
    )
)]
pub struct ApiDoc;

/// The bearer secret (a seat or a personal token) and the session cookie.
struct Security;

impl Modify for Security {
    fn modify(&self, doc: &mut utoipa::openapi::OpenApi) {
        let components = doc.components.get_or_insert_with(Default::default);
        components.add_security_scheme(
            "bearer",
            SecurityScheme::Http(
                HttpBuilder::new()
                    .scheme(HttpAuthScheme::Bearer)
                    .description(Some(
                        "A seat (the secret given when creating or joining a game: it plays \
                         that place) or a personal token `plb_…` (acts for its account).",
                    ))
                    .build(),
            ),
        );
        components.add_security_scheme(
            "session",
            SecurityScheme::ApiKey(ApiKey::Cookie(ApiKeyValue::with_description(
                crate::accounts::session::COOKIE,
                "The session cookie set by signing up or logging in. Writes that carry it \
                 from another site's page are refused (403 `csrf`).",
            ))),
        );
    }
}

/// Bodies that may be left out, which `#[utoipa::path]` can only say by
/// making them nullable: `POST /api/games/{id}/resign` takes no body (or
/// an empty one) as `{}`, but refuses `null`.
struct OptionalBodies;

impl Modify for OptionalBodies {
    fn modify(&self, doc: &mut utoipa::openapi::OpenApi) {
        let resign = doc
            .paths
            .paths
            .get_mut("/api/games/{id}/resign")
            .and_then(|item| item.post.as_mut())
            .and_then(|op| op.request_body.as_mut());
        if let Some(body) = resign {
            body.required = Some(utoipa::openapi::Required::False);
        }
    }
}

/// Every error answer: `{"error": {"code", "message", "details"?}}`, with
/// `Retry-After` when trying again later may succeed (429, 503).
#[derive(Debug)]
pub struct ApiError;

impl<'s> ToResponse<'s> for ApiError {
    fn response() -> (&'s str, RefOr<utoipa::openapi::Response>) {
        let retry = HeaderBuilder::new()
            .schema(
                utoipa::openapi::ObjectBuilder::new().schema_type(utoipa::openapi::Type::Integer),
            )
            .description(Some(
                "Seconds after which the request may be tried again (429, 503)",
            ))
            .build();
        let response = ResponseBuilder::new()
            .description("An error: a stable code, a message, and sometimes details")
            .content(
                "application/json",
                ContentBuilder::new()
                    .schema(Some(Ref::from_schema_name("ErrorBody")))
                    .build(),
            )
            .header("Retry-After", retry)
            .build();
        ("ApiError", response.into())
    }
}

/// A game's id, in the path.
#[derive(Debug, utoipa::IntoParams)]
#[into_params(names("id"), parameter_in = Path)]
pub struct GameId(
    /// The game's id (12 hex digits).
    #[allow(dead_code)]
    String,
);

/// The picture of a game's position, 1200×630, for link previews (also at
/// `/partie/{id}/apercu.svg`).
///
/// Routed by `crate::pages`; described here.
#[utoipa::path(
    get,
    path = "/api/games/{id}/preview.svg",
    operation_id = "preview",
    tag = "games",
    params(GameId),
    responses(
        (status = 200, description = "The position drawn", content_type = "image/svg+xml", body = String),
        (status = 404, response = ApiError),
        (status = 503, response = ApiError),
    )
)]
#[allow(dead_code)]
fn preview_svg() {}

/// The serialised document, made once.
static DOCUMENT: LazyLock<String> = LazyLock::new(|| {
    ApiDoc::openapi()
        .to_pretty_json()
        .expect("the OpenAPI document serialises")
});

/// The document's routes and the page's (their paths are literals, as
/// every route's: `tests/openapi.rs` reads them).
pub fn router() -> Router<AppState> {
    Router::new()
        .route("/api/openapi.json", get(document))
        .route("/api/docs", get(page))
        .route("/api/docs/init.js", get(init_script))
        .route("/api/docs/swagger-ui.css", get(swagger_css))
        .route("/api/docs/swagger-ui-bundle.js", get(swagger_js))
}

/// This API as an OpenAPI 3.1 document.
#[utoipa::path(
    get,
    path = "/api/openapi.json",
    operation_id = "openapi",
    tag = "docs",
    responses((status = 200, description = "The OpenAPI document", content_type = "application/json", body = Object))
)]
async fn document() -> Response {
    (
        [(header::CONTENT_TYPE, "application/json")],
        DOCUMENT.as_str(),
    )
        .into_response()
}

const PAGE: &str = r#"<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Palabre — HTTP API</title>
<link rel="stylesheet" href="/api/docs/swagger-ui.css">
</head>
<body>
<div id="swagger-ui"><p>The API is described in <a href="/api/openapi.json">/api/openapi.json</a>.</p></div>
<script src="/api/docs/swagger-ui-bundle.js"></script>
<script src="/api/docs/init.js"></script>
</body>
</html>
"#;

/// Starts Swagger UI on the document; no request leaves the site (no
/// validator badge).
const INIT: &str = r##"// Palabre's API page: Swagger UI on this server's document.
window.ui = SwaggerUIBundle({
  url: "/api/openapi.json",
  dom_id: "#swagger-ui",
  deepLinking: true,
  validatorUrl: null,
  defaultModelsExpandDepth: 0,
});
"##;

/// A page to read the document (Swagger UI, from embedded files).
#[utoipa::path(
    get,
    path = "/api/docs",
    operation_id = "docsPage",
    tag = "docs",
    responses((status = 200, description = "The page", content_type = "text/html; charset=utf-8", body = String))
)]
async fn page() -> Response {
    (
        [
            (header::CONTENT_TYPE, "text/html; charset=utf-8"),
            (header::CACHE_CONTROL, "no-cache"),
        ],
        PAGE,
    )
        .into_response()
}

/// The page's script: starts Swagger UI on `/api/openapi.json`.
#[utoipa::path(
    get,
    path = "/api/docs/init.js",
    operation_id = "docsScript",
    tag = "docs",
    responses((status = 200, description = "The script", content_type = "text/javascript; charset=utf-8", body = String))
)]
async fn init_script() -> Response {
    (
        [
            (header::CONTENT_TYPE, "text/javascript; charset=utf-8"),
            (header::CACHE_CONTROL, "no-cache"),
        ],
        INIT,
    )
        .into_response()
}

/// Swagger UI's files as `swagger-ui-dist` embeds them. Its own index page
/// (an inline script) is never reached: only the two files are routed here.
static SWAGGER_UI: LazyLock<Router> = LazyLock::new(|| {
    swagger_ui_dist::generate_routes(swagger_ui_dist::ApiDefinition {
        uri_prefix: DOCS_PATH,
        api_definition: swagger_ui_dist::OpenApiSource::Uri(DOCUMENT_PATH),
        title: Some("Palabre"),
    })
});

/// One of Swagger UI's files, cached a day (it changes with the crate).
async fn swagger_file(req: Request) -> Response {
    let mut res = match SWAGGER_UI.clone().oneshot(req).await {
        Ok(res) => res,
        Err(never) => match never {},
    };
    if res.status().is_success() {
        res.headers_mut().insert(
            header::CACHE_CONTROL,
            HeaderValue::from_static("public, max-age=86400"),
        );
    }
    res
}

/// Swagger UI's style sheet.
#[utoipa::path(
    get,
    path = "/api/docs/swagger-ui.css",
    operation_id = "swaggerUiCss",
    tag = "docs",
    responses((status = 200, description = "The style sheet", content_type = "text/css", body = String))
)]
async fn swagger_css(req: Request) -> Response {
    swagger_file(req).await
}

/// Swagger UI's script.
#[utoipa::path(
    get,
    path = "/api/docs/swagger-ui-bundle.js",
    operation_id = "swaggerUiJs",
    tag = "docs",
    responses((status = 200, description = "The script", content_type = "text/javascript", body = String))
)]
async fn swagger_js(req: Request) -> Response {
    swagger_file(req).await
}
