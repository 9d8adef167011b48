//! Schemas of the OpenAPI document for what the server does not serialise
//! from a type of its own: the JSON that handlers build with `json!()`, the
//! types of `palabre-view` (which knows nothing of OpenAPI), and the words
//! that request fields take as strings and parse themselves.
//!
//! These types are never built: each mirrors, field for field, the JSON its
//! handler writes (the handler is named on each). The schemathesis run
//! (`crates/cli/tests/schemathesis.rs`) checks every answer against them.

use std::collections::BTreeMap;

use utoipa::ToSchema;

use crate::domain::{Ended, GameKind, Opponent, Status};
use crate::ratings::{Pool, Rating};
use crate::store::{RatingPoint, TokenRow};

// ---- Words of request fields -------------------------------------------------

/// A side, or `random` (the server draws one).
#[derive(Debug, serde::Serialize, ToSchema)]
#[serde(rename_all = "lowercase")]
pub enum SideChoice {
    Red,
    Black,
    South,
    North,
    Random,
}

/// The machine's level.
#[derive(Debug, serde::Serialize, ToSchema)]
#[serde(rename_all = "lowercase")]
pub enum LevelName {
    Debutant,
    Intermediaire,
    Confirme,
    Expert,
}

/// A time control: none, live (minutes + seconds a move) or correspondence
/// (days a move).
#[derive(Debug, serde::Serialize, ToSchema)]
pub enum TimeControlName {
    #[serde(rename = "none")]
    None,
    #[serde(rename = "5+3")]
    Blitz,
    #[serde(rename = "10+5")]
    Rapid,
    #[serde(rename = "1d")]
    OneDay,
    #[serde(rename = "3d")]
    ThreeDays,
}

/// What played against the person in a game finished offline.
#[derive(Debug, serde::Serialize, ToSchema)]
#[serde(rename_all = "lowercase")]
pub enum OfflineOpponent {
    Machine,
    Local,
}

/// An end the moves cannot show.
#[derive(Debug, serde::Serialize, ToSchema)]
#[serde(rename_all = "lowercase")]
pub enum PeopleEnd {
    Resignation,
    Agreement,
}

/// A personal token's scope.
#[derive(Debug, serde::Serialize, ToSchema)]
pub enum Scope {
    #[serde(rename = "bot:play")]
    BotPlay,
}

/// Who plays a side of a game.
#[derive(Debug, serde::Serialize, ToSchema)]
#[serde(rename_all = "lowercase")]
pub enum PlayerKind {
    Machine,
    Human,
}

// ---- palabre-view's types (crate::game::view::State, replay frames) ---------

/// A Yoté board: the colour of each occupied hole, each side's reserve and
/// captures, and the quiet-move count toward a draw.
#[derive(Debug, serde::Serialize, ToSchema)]
pub struct YoteBoard {
    /// Hole (`a1` … `e5`) to the colour of its ball (`red`, `black`).
    pub board: BTreeMap<String, String>,
    /// Balls each colour still has in hand.
    pub reserve: BTreeMap<String, u8>,
    /// Balls each colour has taken.
    pub captured: BTreeMap<String, u8>,
    pub quiet: u8,
    pub quiet_limit: u8,
}

/// An Nsolo board: the stones of each pit of rows A to D, and each side's
/// stones in all.
#[derive(Debug, serde::Serialize, ToSchema)]
pub struct NsoloBoard {
    /// Row (`A` … `D`) to the stones of its pits, from column 1.
    pub rows: BTreeMap<String, Vec<u8>>,
    pub stones: BTreeMap<String, u32>,
}

/// How a Yoté move is made.
#[derive(Debug, serde::Serialize, ToSchema)]
#[serde(rename_all = "lowercase")]
pub enum YoteMoveKind {
    Place,
    Step,
    Capture,
}

/// A legal Yoté move, in the compact form a board takes it by taps.
#[derive(Debug, serde::Serialize, ToSchema)]
pub struct YoteLegal {
    #[serde(rename = "move")]
    pub notation: String,
    pub kind: YoteMoveKind,
    /// The ball's hole (none for a placement).
    #[schema(nullable = false)]
    pub from: Option<String>,
    pub to: String,
    /// A capture's jumped hole.
    #[schema(nullable = false)]
    pub jumped: Option<String>,
    /// A capture's second removal: a hole, `reserve`, or null when there
    /// was nothing left to remove.
    pub second: Option<String>,
}

/// A legal Nsolo sowing.
#[derive(Debug, serde::Serialize, ToSchema)]
pub struct NsoloLegal {
    pub pit: String,
    pub bonus: u8,
    /// The pit captured from, if the sowing captures.
    #[schema(required)]
    pub capture: Option<String>,
}

/// A legal move of either game.
#[derive(Debug, serde::Serialize, ToSchema)]
#[serde(untagged)]
pub enum Legal {
    Yote(YoteLegal),
    Nsolo(NsoloLegal),
}

/// What a Yoté move did, for its animation.
#[derive(Debug, serde::Serialize, ToSchema)]
pub struct YoteAnimation {
    pub kind: YoteMoveKind,
    #[schema(required)]
    pub from: Option<String>,
    pub to: String,
    #[schema(required)]
    pub jumped: Option<String>,
    #[schema(required)]
    pub second: Option<String>,
}

/// One step of an Nsolo sowing: a lift (`lift`, `count`, `relay`), a drop
/// (`drop`), a capture or a bonus (`capture`/`bonus`, `count`).
#[derive(Debug, serde::Serialize, ToSchema)]
pub struct NsoloStep {
    #[schema(nullable = false)]
    pub lift: Option<String>,
    #[schema(nullable = false)]
    pub drop: Option<String>,
    #[schema(nullable = false)]
    pub capture: Option<String>,
    #[schema(nullable = false)]
    pub bonus: Option<String>,
    #[schema(nullable = false)]
    pub count: Option<u32>,
    #[schema(nullable = false)]
    pub relay: Option<bool>,
}

/// What an Nsolo move did, step by step, for its animation.
#[derive(Debug, serde::Serialize, ToSchema)]
pub struct NsoloAnimation {
    pub steps: Vec<NsoloStep>,
}

/// A move's animation, in the form of its game.
#[derive(Debug, serde::Serialize, ToSchema)]
#[serde(untagged)]
pub enum Animation {
    Yote(YoteAnimation),
    Nsolo(NsoloAnimation),
}

/// A move and what it did.
#[derive(Debug, serde::Serialize, ToSchema)]
pub struct LastMove {
    /// The ply it was played at (from 0).
    pub ply: usize,
    /// The side that played it.
    pub by: String,
    #[serde(rename = "move")]
    pub notation: String,
    pub animation: Animation,
}

/// One position of a replay, with the move that led to it.
#[derive(Debug, serde::Serialize, ToSchema)]
pub struct Frame {
    pub ply: usize,
    pub fen: String,
    pub turn: String,
    #[schema(required)]
    pub last: Option<LastMove>,
    #[schema(nullable = false)]
    pub yote: Option<YoteBoard>,
    #[schema(nullable = false)]
    pub nsolo: Option<NsoloBoard>,
}

/// Every position of a game (`crate::archive`: replay and import).
#[derive(Debug, serde::Serialize, ToSchema)]
pub struct Replay {
    pub game: GameKind,
    pub size: u8,
    pub frames: Vec<Frame>,
}

// ---- JSON built by handlers ---------------------------------------------------

/// The rematch game and the asker's seat in it (`crate::api`).
#[derive(Debug, serde::Serialize, ToSchema)]
pub struct Rematch {
    pub id: String,
    pub seat: String,
}

/// The move the engine suggests (`crate::api`); null when there is none.
#[derive(Debug, serde::Serialize, ToSchema)]
pub struct Hint {
    #[serde(rename = "move")]
    #[schema(required)]
    pub notation: Option<String>,
}

/// Searches waiting for a thread, per lane.
#[derive(Debug, serde::Serialize, ToSchema)]
pub struct Queued {
    pub quick: usize,
    pub deep: usize,
}

/// What the server holds now (`crate::status`).
#[derive(Debug, serde::Serialize, ToSchema)]
pub struct ServerStatus {
    pub games_in_memory: usize,
    pub sockets: usize,
    pub searches_queued: Queued,
    /// Deep threads thinking on a person's time (they give way to any search).
    pub pondering: usize,
    /// Resident memory, where the system tells it.
    #[schema(required)]
    pub resident_bytes: Option<u64>,
}

/// The lobby (`crate::lobby`): online games waiting for players, and games
/// being played.
#[derive(Debug, serde::Serialize, ToSchema)]
pub struct Lobby {
    pub open: Vec<crate::lobby::LobbyGame>,
    pub live: Vec<crate::lobby::LobbyGame>,
}

/// A game in a list (`crate::lobby::listing_json`).
#[derive(Debug, serde::Serialize, ToSchema)]
pub struct GameListing {
    pub id: String,
    pub game: GameKind,
    pub size: u8,
    pub opponent: Opponent,
    /// Side to the names of who plays it.
    pub players: BTreeMap<String, Vec<String>>,
    pub status: Status,
    #[schema(required)]
    pub result: Option<Ended>,
    /// Moves played.
    pub moves: usize,
    pub rated: bool,
    /// When it ended, in milliseconds since the epoch.
    #[schema(required)]
    pub ended_at: Option<i64>,
}

/// An uploaded record's id, and whether this upload stored it
/// (`crate::upload`).
#[derive(Debug, serde::Serialize, ToSchema)]
pub struct Uploaded {
    pub id: String,
    pub stored: bool,
}

/// The account signed in (`crate::accounts::routes`: signup, login).
#[derive(Debug, serde::Serialize, ToSchema)]
pub struct AccountName {
    pub username: String,
}

/// One's own account (`GET /api/account`).
#[derive(Debug, serde::Serialize, ToSchema)]
pub struct Me {
    pub username: String,
    pub bot: bool,
    /// Pool to rating, in every pool.
    pub ratings: BTreeMap<String, Rating>,
}

/// Who is signed in (`GET /api/session`).
#[derive(Debug, serde::Serialize, ToSchema)]
pub struct SessionAccount {
    /// `null` for a guest.
    #[schema(required)]
    pub account: Option<Me>,
}

/// A point of one's rating history, with its pool.
#[derive(Debug, serde::Serialize, ToSchema)]
pub struct PoolPoint {
    pub pool: Pool,
    pub point: RatingPoint,
}

/// Everything the server keeps about one's account (`GET /api/account/export`).
#[derive(Debug, serde::Serialize, ToSchema)]
pub struct AccountExport {
    pub username: String,
    pub bot: bool,
    /// Seconds since the epoch.
    pub created_at: i64,
    pub ratings: BTreeMap<String, Rating>,
    pub rating_history: Vec<PoolPoint>,
    pub games: Vec<GameListing>,
    pub tokens: Vec<TokenRow>,
}

/// A new personal token: its secret is shown this once.
#[derive(Debug, serde::Serialize, ToSchema)]
pub struct TokenCreated {
    pub id: String,
    /// `plb_` and 40 hex digits: send it as `Authorization: Bearer …`.
    pub token: String,
    pub description: String,
    pub scopes: Vec<String>,
}

/// Wins, draws and losses in one pool.
#[derive(Debug, serde::Serialize, ToSchema)]
pub struct Results {
    pub wins: i64,
    pub draws: i64,
    pub losses: i64,
}

/// A player in public (`crate::players`).
#[derive(Debug, serde::Serialize, ToSchema)]
pub struct Profile {
    pub username: String,
    pub bot: bool,
    pub created_at: i64,
    pub ratings: BTreeMap<String, Rating>,
    pub results: BTreeMap<String, Results>,
    pub history: BTreeMap<String, Vec<RatingPoint>>,
    /// Their recent online games.
    pub games: Vec<GameListing>,
}

/// A place on a leaderboard.
#[derive(Debug, serde::Serialize, ToSchema)]
pub struct Ranked {
    /// From 1.
    pub rank: usize,
    pub username: String,
    pub bot: bool,
    pub rating: f64,
    pub deviation: f64,
    pub games: i64,
}

/// One pool's leaderboard (`crate::players`).
#[derive(Debug, serde::Serialize, ToSchema)]
pub struct Leaderboard {
    pub pool: Pool,
    pub players: Vec<Ranked>,
}

/// Every pool's leaderboard.
#[derive(Debug, serde::Serialize, ToSchema)]
pub struct Leaderboards {
    pub yote: Leaderboard,
    pub nsolo8: Leaderboard,
    pub nsolo: Leaderboard,
}

/// Where a challenge stands.
#[derive(Debug, serde::Serialize, ToSchema)]
#[serde(rename_all = "lowercase")]
pub enum ChallengeStatus {
    Created,
    Accepting,
    Accepted,
    Declined,
    Canceled,
}

/// A player of a challenge (null username: a deleted account).
#[derive(Debug, serde::Serialize, ToSchema)]
pub struct ChallengePlayer {
    #[schema(required)]
    pub username: Option<String>,
    pub bot: bool,
    pub rating: f64,
}

/// A challenge (`crate::bot::challenges`).
#[derive(Debug, serde::Serialize, ToSchema)]
pub struct Challenge {
    pub id: String,
    pub status: ChallengeStatus,
    pub challenger: ChallengePlayer,
    pub dest_user: ChallengePlayer,
    pub game: GameKind,
    pub size: u8,
    pub rated: bool,
    pub time_control: TimeControlName,
    pub side: SideChoice,
    /// The game, once accepted.
    #[schema(required)]
    pub game_id: Option<String>,
}

/// Done.
#[derive(Debug, serde::Serialize, ToSchema)]
pub struct Done {
    pub ok: bool,
}

/// An accepted challenge's game.
#[derive(Debug, serde::Serialize, ToSchema)]
pub struct ChallengeAccepted {
    pub ok: bool,
    pub game_id: String,
}

// ---- Errors -----------------------------------------------------------------

/// What went wrong (`crate::error::AppError`).
#[derive(Debug, serde::Serialize, ToSchema)]
pub struct ErrorDetail {
    /// A stable code: `bad_request`, `not_found`, `stale_ply`,
    /// `illegal_move`, `rate_limited`, …
    #[schema(example = "not_found")]
    pub code: String,
    /// A sentence for people (English).
    #[schema(example = "no such game")]
    pub message: String,
    /// More, for a page to word in its own language (an imported record's
    /// refused move: its ply, side, rule).
    #[schema(nullable = false, value_type = Option<Object>)]
    pub details: Option<serde_json::Value>,
}

/// Every error the API answers.
#[derive(Debug, serde::Serialize, ToSchema)]
pub struct ErrorBody {
    pub error: ErrorDetail,
}
