//! Security headers on every response.

use axum::http::{HeaderName, HeaderValue, header};
use tower::ServiceBuilder;
use tower::layer::util::{Identity, Stack};
use tower_http::set_header::SetResponseHeaderLayer;

// 'wasm-unsafe-eval' lets the engine's WebAssembly compile (and nothing
// else be evaluated); the service worker and the manifest are the site's own.
const CSP: &str = "default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; \
                   style-src 'self' 'unsafe-inline'; img-src 'self' data:; connect-src 'self'; \
                   media-src 'self'; worker-src 'self'; manifest-src 'self'; object-src 'none'; \
                   base-uri 'none'; form-action 'self'; frame-ancestors 'none'";

type Header = SetResponseHeaderLayer<HeaderValue>;
type Layers = Stack<Header, Stack<Header, Stack<Header, Stack<Header, Identity>>>>;

fn set(name: HeaderName, value: &'static str) -> Header {
    SetResponseHeaderLayer::if_not_present(name, HeaderValue::from_static(value))
}

/// CSP, no sniffing, no framing, no referrer.
pub fn security() -> ServiceBuilder<Layers> {
    ServiceBuilder::new()
        .layer(set(header::CONTENT_SECURITY_POLICY, CSP))
        .layer(set(header::X_CONTENT_TYPE_OPTIONS, "nosniff"))
        .layer(set(header::X_FRAME_OPTIONS, "DENY"))
        .layer(set(header::REFERRER_POLICY, "no-referrer"))
}
