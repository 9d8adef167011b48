//! Accounts: players who sign up keep their games, their ratings and their
//! tokens from any device. Guests play as before, with seats only.
//!
//! - [`username`] and [`password`]: what a name and a password must be;
//!   passwords are hashed with argon2id.
//! - [`session`]: the session cookie, its records in the database, and the
//!   check that refuses cookie writes from other sites.
//! - [`viewer`]: who is asking (a guest, a session, a personal token).
//! - [`routes`]: the routes under `/api/account`.

pub mod password;
pub mod routes;
pub mod session;
pub mod username;
pub mod viewer;

pub use routes::router;
pub use viewer::{Account, Viewer};
