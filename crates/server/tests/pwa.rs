//! The installable app as the browser fetches it, called on the router
//! directly: the service worker with its version and the files it keeps,
//! and the web manifest with icons that exist.

use axum::Router;
use axum::body::Body;
use axum::http::{HeaderMap, Request, StatusCode, header};
use http_body_util::BodyExt;
use palabre_server::{AppState, Config, app};
use serde_json::Value;
use tower::ServiceExt;

async fn router() -> Router {
    app(AppState::open(&Config::testing()).await.unwrap())
}

async fn get(app: &Router, uri: &str) -> (StatusCode, HeaderMap, Vec<u8>) {
    let res = app
        .clone()
        .oneshot(Request::get(uri).body(Body::empty()).unwrap())
        .await
        .unwrap();
    let status = res.status();
    let headers = res.headers().clone();
    let bytes = res.into_body().collect().await.unwrap().to_bytes();
    (status, headers, bytes.to_vec())
}

/// The JSON value the worker's `const NAME = …;` line holds.
fn constant(js: &str, name: &str) -> Value {
    let start = format!("const {name} = ");
    let line = js
        .lines()
        .find_map(|l| l.strip_prefix(&start))
        .unwrap_or_else(|| panic!("no const {name}"));
    serde_json::from_str(line.trim_end_matches(';')).unwrap()
}

#[tokio::test]
async fn the_service_worker_has_a_version_and_keeps_the_shell() {
    let app = router().await;
    let (status, headers, body) = get(&app, "/sw.js").await;
    assert_eq!(status, StatusCode::OK);
    assert!(
        headers[header::CONTENT_TYPE]
            .to_str()
            .unwrap()
            .starts_with("text/javascript")
    );
    assert_eq!(headers[header::CACHE_CONTROL], "no-cache");
    let js = String::from_utf8(body).unwrap();
    assert!(!js.contains("__VERSION__") && !js.contains("__PRECACHE__"));

    let version = constant(&js, "VERSION");
    let version = version.as_str().unwrap();
    assert_eq!(version.len(), 16, "{version}");
    assert!(version.bytes().all(|b| b.is_ascii_hexdigit()), "{version}");

    let precache: Vec<String> = serde_json::from_value(constant(&js, "PRECACHE")).unwrap();
    for kept in [
        "/",
        "/nouvelle",
        "/assets/js/pwa.js",
        "/assets/js/i18n.js",
        "/assets/css/base.css",
        "/assets/i18n/fr.json",
        "/assets/img/icon-192.png",
        "/manifest.webmanifest",
    ] {
        assert!(precache.iter().any(|p| p == kept), "{kept} not kept");
    }
    assert!(!precache.iter().any(|p| p.starts_with("/api/")));
    let mut unique = precache.clone();
    unique.sort();
    unique.dedup();
    assert_eq!(unique.len(), precache.len(), "an address kept twice");

    // The same files give the same worker (a browser compares it byte for byte).
    let (_, _, again) = get(&app, "/sw.js").await;
    assert_eq!(String::from_utf8(again).unwrap(), js);
}

#[tokio::test]
async fn every_kept_address_answers() {
    // The worker's install keeps all of them or none: one missing address
    // would leave the site without offline pages.
    let app = router().await;
    let (_, _, body) = get(&app, "/sw.js").await;
    let js = String::from_utf8(body).unwrap();
    let precache: Vec<String> = serde_json::from_value(constant(&js, "PRECACHE")).unwrap();
    for path in &precache {
        let (status, _, _) = get(&app, path).await;
        assert_eq!(status, StatusCode::OK, "{path}");
    }
}

#[tokio::test]
async fn the_manifest_makes_the_site_installable() {
    let app = router().await;
    let (status, headers, body) = get(&app, "/manifest.webmanifest").await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(headers[header::CONTENT_TYPE], "application/manifest+json");
    let m: Value = serde_json::from_slice(&body).unwrap();
    assert_eq!(m["name"], "Palabre");
    assert_eq!(m["short_name"], "Palabre");
    assert_eq!(m["display"], "standalone");
    assert_eq!(m["start_url"], "/");
    assert_eq!(m["scope"], "/");
    assert_eq!(m["lang"], "fr");
    for colour in ["theme_color", "background_color"] {
        let c = m[colour].as_str().unwrap();
        assert!(c.len() == 7 && c.starts_with('#'), "{colour}: {c}");
    }

    let icons = m["icons"].as_array().unwrap();
    for purpose in ["any", "maskable"] {
        for size in ["192x192", "512x512"] {
            assert!(
                icons
                    .iter()
                    .any(|i| i["sizes"] == size && i["purpose"] == purpose),
                "no {size} icon for {purpose}"
            );
        }
    }
    for icon in icons {
        let src = icon["src"].as_str().unwrap();
        let (status, headers, png) = get(&app, src).await;
        assert_eq!(status, StatusCode::OK, "{src}");
        assert_eq!(headers[header::CONTENT_TYPE], "image/png", "{src}");
        // The PNG's own width and height (IHDR) match what the manifest says.
        assert_eq!(&png[1..4], b"PNG", "{src}");
        let width = u32::from_be_bytes(png[16..20].try_into().unwrap());
        let height = u32::from_be_bytes(png[20..24].try_into().unwrap());
        assert_eq!(icon["sizes"], format!("{width}x{height}"), "{src}");
    }
}

#[tokio::test]
async fn pages_link_the_manifest_and_the_worker() {
    let app = router().await;
    for path in ["/", "/nouvelle", "/yote/regles", "/parties", "/nulle-part"] {
        let (_, _, body) = get(&app, path).await;
        let html = String::from_utf8(body).unwrap();
        assert!(
            html.contains(r#"<link rel="manifest" href="/manifest.webmanifest">"#),
            "{path}"
        );
        assert!(html.contains(r#"<meta name="theme-color""#), "{path}");
        assert!(html.contains(r#"src="/assets/js/pwa.js""#), "{path}");
    }
    let (_, headers, _) = get(&app, "/").await;
    let csp = headers[header::CONTENT_SECURITY_POLICY].to_str().unwrap();
    for part in [
        "'wasm-unsafe-eval'",
        "worker-src 'self'",
        "manifest-src 'self'",
    ] {
        assert!(csp.contains(part), "{csp}");
    }
}
