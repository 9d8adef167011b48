//! The game state as the pages read it: the board, the legal moves in a
//! compact form and what the last move did, so that a page can draw and
//! animate without knowing the rules.

use std::collections::BTreeMap;

use palabre_view::{Drawn, last_move};
pub use palabre_view::{LastMove, Legal, NsoloBoard, YoteBoard};
use serde::Serialize;

use super::Game;
use super::state::TakebackOffer;
use crate::domain::{Ended, GameKind, Opponent, Side, Status};
use crate::play::Play;

/// A game as the API and the live socket show it (`GET /api/games/{id}`).
#[derive(Debug, Serialize, utoipa::ToSchema)]
#[schema(as = GameState)]
pub struct State {
    pub id: String,
    pub game: GameKind,
    pub size: u8,
    pub opponent: Opponent,
    /// The machine's level (`debutant` … `expert`).
    pub level: String,
    /// Who plays each side: `machine` or `human`.
    #[schema(value_type = BTreeMap<String, crate::openapi::shapes::PlayerKind>)]
    pub players: BTreeMap<Side, &'static str>,
    /// The position (rules.md's notation).
    pub fen: String,
    /// Moves played so far.
    pub ply: usize,
    pub turn: Side,
    pub moves: Vec<String>,
    /// The machine is searching for its move.
    pub thinking: bool,
    #[schema(required)]
    pub result: Option<Ended>,
    #[schema(required)]
    pub draw_offer: Option<Side>,
    pub draw_declined: bool,
    #[schema(required)]
    pub takeback_offer: Option<TakebackOffer>,
    pub takeback_declined: bool,
    /// A Yoté game's board.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schema(value_type = Option<crate::openapi::shapes::YoteBoard>, nullable = false)]
    pub yote: Option<YoteBoard>,
    /// An Nsolo game's board.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schema(value_type = Option<crate::openapi::shapes::NsoloBoard>, nullable = false)]
    pub nsolo: Option<NsoloBoard>,
    /// The legal moves when a person is to move (empty otherwise).
    #[schema(value_type = Vec<crate::openapi::shapes::Legal>)]
    pub legal: Vec<Legal>,
    /// Why each place of the person to move that starts no move is refused.
    pub refusals: BTreeMap<String, &'static str>,
    /// The last move, for the page's animation.
    #[schema(value_type = Option<crate::openapi::shapes::LastMove>, required)]
    pub last: Option<LastMove>,
    pub status: Status,
    /// `none`, `5+3`, `10+5`, `1d` or `3d`.
    pub time_control: String,
    pub team_size: u8,
    /// Online: the members of each side.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schema(value_type = Option<BTreeMap<String, Vec<TeamMember>>>, nullable = false)]
    pub teams: Option<BTreeMap<Side, Vec<TeamMember>>>,
    /// Online: the member whose hand plays the next move.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schema(nullable = false)]
    pub next_hand: Option<NextHand>,
    /// Milliseconds left on each side's clock, in games with a clock.
    #[schema(value_type = Option<BTreeMap<String, i64>>, required)]
    pub clocks: Option<BTreeMap<Side, i64>>,
    /// The side whose clock runs.
    #[schema(required)]
    pub running: Option<Side>,
    /// The id of the rematch game, once asked for.
    #[schema(required)]
    pub rematch: Option<String>,
    /// Online between two accounts, changing their ratings.
    pub rated: bool,
}

#[derive(Debug, Serialize, utoipa::ToSchema)]
pub struct TeamMember {
    pub name: String,
    pub online: bool,
    /// The name is a signed-in account's: its profile is `/joueur/{name}`.
    pub account: bool,
    /// The account is a bot's.
    pub bot: bool,
}

#[derive(Debug, Serialize, utoipa::ToSchema)]
pub struct NextHand {
    pub side: Side,
    pub name: String,
    pub index: u8,
}

fn teams(g: &Game) -> Option<BTreeMap<Side, Vec<TeamMember>>> {
    g.is_online().then(|| {
        g.row
            .kind
            .sides()
            .into_iter()
            .map(|side| {
                let members = g
                    .team(side)
                    .map(|m| TeamMember {
                        name: m.name.clone(),
                        account: m.account.is_some(),
                        bot: m.bot,
                        online: g.online(m.side, m.position),
                    })
                    .collect();
                (side, members)
            })
            .collect()
    })
}

/// Legal moves of the position, when a person is to move.
fn legal(g: &Game) -> Vec<Legal> {
    if g.status() != Status::Playing || g.machine_to_move() {
        return Vec::new();
    }
    match &g.play {
        Play::Yote(r) => r.position().legal(),
        Play::Nsolo(r) => r.position().legal(),
    }
}

/// Why the places the side to move might tap start no move.
fn refusals(g: &Game, legal: &[Legal]) -> BTreeMap<String, &'static str> {
    if g.status() != Status::Playing || g.machine_to_move() {
        return BTreeMap::new();
    }
    match &g.play {
        Play::Yote(r) => r.position().refusals(legal),
        Play::Nsolo(r) => r.position().refusals(legal),
    }
}

/// The state of a game as the API shows it.
pub fn state(g: &Game) -> State {
    let machine = g.machine_side();
    let sides = g.row.kind.sides();
    let players = sides
        .iter()
        .map(|side| {
            let who = if machine == Some(*side) {
                "machine"
            } else {
                "human"
            };
            (*side, who)
        })
        .collect();
    let legal = legal(g);
    let (yote, nsolo, last) = match &g.play {
        Play::Yote(r) => (Some(YoteBoard::of(r.position())), None, last_move(r)),
        Play::Nsolo(r) => (None, Some(NsoloBoard::of(r.position())), last_move(r)),
    };
    let clocks = g
        .clocks_now()
        .map(|left| sides.iter().map(|s| (*s, left[s.index()])).collect());
    State {
        id: g.row.id.clone(),
        game: g.row.kind,
        size: g.row.size,
        opponent: g.row.opponent,
        level: g.row.level.to_string(),
        players,
        fen: g.play.fen(),
        ply: g.play.ply(),
        turn: g.play.turn(),
        moves: g.play.moves(),
        thinking: g.thinking,
        result: g.result(),
        draw_offer: g.draw_offer,
        draw_declined: g.draw_declined,
        takeback_offer: g.takeback_offer,
        takeback_declined: g.takeback_declined,
        yote,
        nsolo,
        refusals: refusals(g, &legal),
        legal,
        last,
        status: g.status(),
        time_control: g.row.time_control.to_string(),
        team_size: g.row.team_size,
        teams: teams(g),
        next_hand: g
            .is_online()
            .then(|| {
                g.next_hand().map(|m| NextHand {
                    side: m.side,
                    name: m.name.clone(),
                    index: m.position,
                })
            })
            .flatten(),
        clocks,
        running: g.running_clock(),
        rematch: g.row.rematch_id.clone(),
        rated: g.row.rated,
    }
}

/// Every position of a game, with the move that led to it, for the replay viewer.
pub fn frames(play: &Play) -> Vec<serde_json::Value> {
    match play {
        Play::Yote(r) => palabre_view::frames(r),
        Play::Nsolo(r) => palabre_view::frames(r),
    }
}
