//! Palabre's rules and AI in the browser, for a Web Worker.
//!
//! - [`local`]: a game that lives in the browser (against the machine or on
//!   one screen): its record as JSON, the actions on it, and its state in
//!   exactly the shape the server sends, so the page cannot tell them apart.
//! - [`machine`]: the machine's move, hints, draw answers and analysis,
//!   through the AI crate.
//! - [`bindings`]: the JavaScript API over both, strings in and out.

pub mod bindings;
pub mod local;
pub mod machine;
mod record;
pub mod state;

pub use local::{LocalError, LocalGame};
