//! The OpenAPI document (`GET /api/openapi.json`) and its page
//! (`GET /api/docs`).
//!
//! The completeness test reads the server's own source files, collects
//! every `.route("/api/…", <methods>)` and fails when one of those paths
//! and methods is not in the document served by the router (or when the
//! document describes a route that no longer exists).

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

use axum::Router;
use axum::body::Body;
use axum::http::{Request, StatusCode, header};
use http_body_util::BodyExt;
use palabre_server::{AppState, Config, app};
use serde_json::{Value, json};
use tower::ServiceExt;

/// The methods axum's `MethodRouter` is built with, by name.
const METHODS: &[&str] = &[
    "get", "post", "put", "delete", "patch", "head", "options", "trace",
];

/// A route of the router: its path as OpenAPI writes it and a method.
type Route = (String, String);

async fn router() -> Router {
    app(AppState::open(&Config::testing()).await.unwrap())
}

async fn fetch(app: &Router, uri: &str) -> (StatusCode, Option<String>, Vec<u8>) {
    let req = Request::builder().uri(uri).body(Body::empty()).unwrap();
    let res = app.clone().oneshot(req).await.unwrap();
    let status = res.status();
    let kind = res
        .headers()
        .get(header::CONTENT_TYPE)
        .map(|v| v.to_str().unwrap().to_owned());
    let bytes = res.into_body().collect().await.unwrap().to_bytes();
    (status, kind, bytes.to_vec())
}

async fn document(app: &Router) -> Value {
    let (status, kind, bytes) = fetch(app, "/api/openapi.json").await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(kind.as_deref(), Some("application/json"));
    serde_json::from_slice(&bytes).expect("the document is JSON")
}

/// The end of the parenthesised argument list that starts after `open`
/// (the index just past `(`): the index of its `)`. String and char
/// literals are skipped.
fn closing(text: &[u8], open: usize) -> Option<usize> {
    let mut depth = 0usize;
    let mut i = open;
    while i < text.len() {
        match text[i] {
            b'"' => {
                i += 1;
                while i < text.len() && text[i] != b'"' {
                    i += if text[i] == b'\\' { 2 } else { 1 };
                }
            }
            b'(' | b'[' | b'{' => depth += 1,
            b')' | b']' | b'}' if depth == 0 => return Some(i),
            b')' | b']' | b'}' => depth -= 1,
            _ => {}
        }
        i += 1;
    }
    None
}

/// Whether a call's arguments are more than one (a comma outside any
/// bracket or string).
fn has_top_level_comma(args: &str) -> bool {
    let bytes = args.as_bytes();
    let mut depth = 0usize;
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            b'(' | b'[' | b'{' => depth += 1,
            b')' | b']' | b'}' => depth = depth.saturating_sub(1),
            b'"' => {
                i += 1;
                while i < bytes.len() && bytes[i] != b'"' {
                    i += if bytes[i] == b'\\' { 2 } else { 1 };
                }
            }
            b',' if depth == 0 => return !args[i + 1..].trim().is_empty(),
            _ => {}
        }
        i += 1;
    }
    false
}

/// The methods a route's second argument routes: `get(a)`, `post(b).layer(…)`,
/// `get(c).delete(d)`; only calls at the top level of the argument count,
/// so that a handler's own code (a closure) is not read as a method.
fn methods_in(arg: &str) -> Vec<String> {
    let bytes = arg.as_bytes();
    let mut found = Vec::new();
    let mut depth = 0usize;
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            b'(' | b'[' | b'{' => depth += 1,
            b')' | b']' | b'}' => depth = depth.saturating_sub(1),
            b'"' => {
                i += 1;
                while i < bytes.len() && bytes[i] != b'"' {
                    i += if bytes[i] == b'\\' { 2 } else { 1 };
                }
            }
            c if depth == 0 && c.is_ascii_lowercase() => {
                let start = i;
                while i < bytes.len() && (bytes[i].is_ascii_alphanumeric() || bytes[i] == b'_') {
                    i += 1;
                }
                let word = &arg[start..i];
                let before = arg[..start].trim_end();
                let free = before.is_empty() || before.ends_with('.');
                if free && arg[i..].trim_start().starts_with('(') && METHODS.contains(&word) {
                    found.push(word.to_owned());
                }
                continue;
            }
            _ => {}
        }
        i += 1;
    }
    found
}

/// `{*rest}` (axum's catch-all) as OpenAPI writes a parameter: `{rest}`.
fn openapi_path(axum_path: &str) -> String {
    axum_path.replace("{*", "{")
}

/// Every `(path, method)` routed under `/api/` by `.route(…)` calls in
/// `source`. Panics on a route this reading cannot understand: one whose
/// path is not a string literal, an `/api/` one whose methods it finds none
/// of, or one made by `route_service`, `nest` or `nest_service` (whose
/// methods the source does not show).
fn api_routes(source: &str) -> Vec<Route> {
    for opaque in [".route_service(", ".nest(", ".nest_service("] {
        for (at, _) in source.match_indices(opaque) {
            let rest = source[at + opaque.len()..].trim_start();
            assert!(
                !rest.starts_with("\"/api"),
                "`{opaque}` under /api/: describe it with `.route` or teach this test its methods"
            );
        }
    }
    let mut routes = Vec::new();
    for (at, _) in source.match_indices(".route(") {
        let open = at + ".route(".len();
        let rest = &source[open..];
        let trimmed = rest.trim_start();
        let Some(close) = closing(source.as_bytes(), open) else {
            continue;
        };
        // A router's `.route` takes a path and a method router; other
        // methods named `route` (one argument) are not routes.
        if !has_top_level_comma(&source[open..close]) {
            continue;
        }
        let Some(literal) = trimmed.strip_prefix('"') else {
            panic!(
                "a route whose path is not a string literal: `.route({}…`: write the path \
                 as a literal so that this test can read it",
                &trimmed[..trimmed.len().min(30)]
            );
        };
        let Some(end) = literal.find('"') else {
            continue;
        };
        let path = &literal[..end];
        if !path.starts_with("/api/") && path != "/api" {
            continue;
        }
        let call = &source[open..close];
        let after_path = &call[call.find(path).unwrap() + path.len() + 1..];
        let arg = after_path.trim_start().trim_start_matches(',');
        let methods = methods_in(arg);
        assert!(
            !methods.is_empty(),
            "no method found for route {path}: {arg:?} (teach this test)"
        );
        for m in methods {
            routes.push((openapi_path(path), m));
        }
    }
    routes
}

/// The `(path, method)` pairs of an OpenAPI document.
fn documented(doc: &Value) -> BTreeSet<Route> {
    let mut out = BTreeSet::new();
    for (path, item) in doc["paths"].as_object().expect("paths") {
        for method in item.as_object().unwrap().keys() {
            if METHODS.contains(&method.as_str()) {
                out.insert((path.clone(), method.clone()));
            }
        }
    }
    out
}

/// The routes missing from the document.
fn missing(routes: &[Route], doc: &Value) -> Vec<Route> {
    let have = documented(doc);
    routes
        .iter()
        .filter(|r| !have.contains(*r))
        .cloned()
        .collect()
}

/// The source files of the server crate.
fn sources(dir: &Path, out: &mut Vec<(String, String)>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            sources(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            let text = std::fs::read_to_string(&path).unwrap();
            out.push((path.display().to_string(), text));
        }
    }
}

/// Every `/api/` route of the server's source, with the file it is in.
fn server_routes() -> BTreeMap<Route, String> {
    let mut files = Vec::new();
    sources(
        &Path::new(env!("CARGO_MANIFEST_DIR")).join("src"),
        &mut files,
    );
    let mut routes = BTreeMap::new();
    for (file, text) in &files {
        for route in api_routes(text) {
            routes.insert(route, file.clone());
        }
    }
    routes
}

#[tokio::test]
async fn every_api_route_is_in_the_document() {
    let routes = server_routes();
    // The reading of the source found the routes it should: a change that
    // blinds it fails here rather than passing on nothing.
    assert!(routes.len() >= 45, "only {} routes found", routes.len());
    for known in [
        ("/api/games", "post"),
        ("/api/import", "post"),
        ("/api/records", "post"),
        ("/api/records", "get"),
        ("/api/account", "delete"),
        ("/api/bot/game/{id}/move/{move}", "post"),
        ("/api/games/{id}/preview.svg", "get"),
        ("/api/openapi.json", "get"),
    ] {
        let key = (known.0.to_owned(), known.1.to_owned());
        assert!(
            routes.contains_key(&key),
            "{known:?} not found in the source"
        );
    }

    let doc = document(&router().await).await;
    let list: Vec<Route> = routes.keys().cloned().collect();
    let absent: Vec<String> = missing(&list, &doc)
        .into_iter()
        .map(|(path, method)| {
            let file = &routes[&(path.clone(), method.clone())];
            format!("{} {path} (routed in {file})", method.to_uppercase())
        })
        .collect();
    assert!(
        absent.is_empty(),
        "routes missing from the OpenAPI document (add #[utoipa::path] and list them in \
         crate::openapi::ApiDoc):\n{}",
        absent.join("\n")
    );
    // And nothing is described that is not routed.
    let stale: Vec<Route> = documented(&doc)
        .into_iter()
        .filter(|r| !routes.contains_key(r))
        .collect();
    assert!(stale.is_empty(), "described but not routed: {stale:?}");
}

#[test]
fn the_collector_reads_every_way_routes_are_written_and_finds_what_is_missing() {
    let source = r#"
        pub fn router() -> Router<AppState> {
            Router::new()
                .route("/api/a", get(read))
                .route(
                    "/api/b",
                    post(import).layer(DefaultBodyLimit::max(LIMIT)),
                )
                .route("/api/c", get(me).delete(delete_account))
                .route("/api/d/{id}/move/{*move}", post(play))
                .route("/nouvelle", page!("new.html"))
                .route("/api/e", get(|h: HeaderMap| async move { h.get("x").is_some(); post(1) }))
        }
    "#;
    let routes = api_routes(source);
    let expected: Vec<Route> = [
        ("/api/a", "get"),
        ("/api/b", "post"),
        ("/api/c", "get"),
        ("/api/c", "delete"),
        ("/api/d/{id}/move/{move}", "post"),
        ("/api/e", "get"),
    ]
    .iter()
    .map(|(p, m)| ((*p).to_owned(), (*m).to_owned()))
    .collect();
    assert_eq!(routes, expected);

    // A document without `POST /api/b` and `DELETE /api/c`: both are named.
    let doc = json!({ "openapi": "3.1.0", "paths": {
        "/api/a": { "get": {} },
        "/api/c": { "get": {}, "parameters": [] },
        "/api/d/{id}/move/{move}": { "post": {} },
        "/api/e": { "get": {} },
    }});
    assert_eq!(
        missing(&routes, &doc),
        vec![
            ("/api/b".to_owned(), "post".to_owned()),
            ("/api/c".to_owned(), "delete".to_owned()),
        ]
    );
}

#[test]
#[should_panic(expected = "no method found")]
fn a_route_whose_methods_cannot_be_read_fails() {
    api_routes(r#".route("/api/x", api_route!(read))"#);
}

#[test]
#[should_panic(expected = "not a string literal")]
fn a_route_whose_path_cannot_be_read_fails() {
    assert!(api_routes(r#"let owner = self.route(id).await?;"#).is_empty());
    api_routes(r#".route(DOCS, get(page))"#);
}

#[test]
#[should_panic(expected = "route_service")]
fn a_service_under_api_fails() {
    api_routes(r#".route_service("/api/x", ServeDir::new("x"))"#);
}

/// Every `$ref` of `v`.
fn refs<'a>(v: &'a Value, out: &mut Vec<&'a str>) {
    match v {
        Value::Object(map) => {
            for (k, v) in map {
                match (k.as_str(), v) {
                    ("$ref", Value::String(r)) => out.push(r),
                    _ => refs(v, out),
                }
            }
        }
        Value::Array(items) => items.iter().for_each(|v| refs(v, out)),
        _ => {}
    }
}

#[tokio::test]
async fn the_document_is_openapi_3_1_with_its_components() {
    let doc = document(&router().await).await;
    assert!(
        doc["openapi"].as_str().unwrap().starts_with("3.1."),
        "{}",
        doc["openapi"]
    );
    assert_eq!(doc["info"]["title"], "Palabre");
    assert_eq!(doc["info"]["version"], env!("CARGO_PKG_VERSION"));

    let components = &doc["components"];
    for schema in ["GameState", "NewGame", "ErrorBody", "Legal", "Challenge"] {
        assert!(components["schemas"][schema].is_object(), "{schema}");
    }
    assert_eq!(components["securitySchemes"]["bearer"]["scheme"], "bearer");
    assert_eq!(components["securitySchemes"]["session"]["in"], "cookie");
    assert_eq!(
        components["securitySchemes"]["session"]["name"],
        "palabre_session"
    );
    // The error format, as crate::error writes it.
    let error = &components["schemas"]["ErrorDetail"];
    assert_eq!(error["required"], json!(["code", "message"]));

    // Every reference resolves.
    let mut all = Vec::new();
    refs(&doc, &mut all);
    assert!(!all.is_empty());
    for r in all {
        let pointer = r.strip_prefix('#').expect("a local reference");
        assert!(doc.pointer(pointer).is_some(), "{r} does not resolve");
    }

    // Bodies that refuse unknown fields say so.
    for body in [
        "NewGame",
        "JoinBody",
        "MoveBody",
        "DrawBody",
        "ResignBody",
        "Credentials",
        "NewPassword",
        "Confirmation",
        "NewToken",
        "NewChallenge",
        "Upload",
        "UploadEnd",
        "ProbeRequest",
    ] {
        assert_eq!(
            components["schemas"][body]["additionalProperties"],
            json!(false),
            "{body}"
        );
    }

    // Operation ids are unique, and every operation that can fail names
    // its errors with the one error response.
    let mut ids = BTreeSet::new();
    for (path, item) in doc["paths"].as_object().unwrap() {
        for (method, op) in item.as_object().unwrap() {
            let id = op["operationId"].as_str().expect("an operationId");
            assert!(ids.insert(id.to_owned()), "operationId {id} twice");
            let responses = op["responses"].as_object().unwrap();
            assert!(
                responses.keys().any(|s| s.starts_with('2') || s == "101"),
                "{method} {path}: no success"
            );
            // A write that carries the session cookie from another site's
            // page is refused before its handler runs.
            if method != "get" {
                assert!(
                    responses.contains_key("403"),
                    "{method} {path}: no 403 (csrf)"
                );
            }
            for (status, response) in responses {
                if status.starts_with('4') || status.starts_with('5') {
                    assert_eq!(
                        response["$ref"], "#/components/responses/ApiError",
                        "{method} {path} {status}"
                    );
                }
            }
        }
    }
}

#[tokio::test]
async fn the_docs_page_loads_swagger_ui_from_this_server_without_inline_script() {
    let app = router().await;
    let (status, kind, page) = fetch(&app, "/api/docs").await;
    assert_eq!(status, StatusCode::OK);
    assert!(kind.unwrap().starts_with("text/html"));
    let page = String::from_utf8(page).unwrap();
    // Every script has a source on this server: the CSP allows no other.
    let scripts: Vec<&str> = page.split("<script").skip(1).collect();
    assert_eq!(scripts.len(), 2);
    for script in scripts {
        let tag = &script[..script.find('>').unwrap()];
        assert!(tag.contains(" src=\"/api/docs/"), "{tag}");
        assert!(script[tag.len() + 1..].starts_with("</script>"), "inline");
    }
    assert!(!page.contains("http://") && !page.contains("https://"));
    for (asset, want) in [
        ("/api/docs/swagger-ui.css", "text/css"),
        ("/api/docs/swagger-ui-bundle.js", "text/javascript"),
        ("/api/docs/init.js", "text/javascript"),
    ] {
        assert!(
            page.contains(asset) || asset.ends_with("init.js"),
            "{asset}"
        );
        let (status, kind, body) = fetch(&app, asset).await;
        assert_eq!(status, StatusCode::OK, "{asset}");
        assert!(kind.unwrap().starts_with(want), "{asset}");
        assert!(body.len() > 100, "{asset}");
    }
    let (_, _, init) = fetch(&app, "/api/docs/init.js").await;
    assert!(
        String::from_utf8(init)
            .unwrap()
            .contains("\"/api/openapi.json\"")
    );
}
