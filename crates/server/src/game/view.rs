//! The game state as the pages read it: the board, the legal moves in a
//! compact form and what the last move did, so that a page can draw and
//! animate without knowing the rules.

use std::collections::BTreeMap;

use palabre_rules::nsolo::{self, Pit, Row, Step};
use palabre_rules::yote::{self, Color, Second, Square};
use palabre_rules::{GamePosition, Record};
use serde::Serialize;

use super::Game;
use super::state::TakebackOffer;
use crate::domain::{Ended, GameKind, Opponent, Side, Status};
use crate::play::Play;

#[derive(Debug, Serialize)]
pub struct State {
    pub id: String,
    pub game: GameKind,
    pub size: u8,
    pub opponent: Opponent,
    pub level: String,
    pub players: BTreeMap<Side, &'static str>,
    pub fen: String,
    pub ply: usize,
    pub turn: Side,
    pub moves: Vec<String>,
    pub thinking: bool,
    pub result: Option<Ended>,
    pub draw_offer: Option<Side>,
    pub draw_declined: bool,
    pub takeback_offer: Option<TakebackOffer>,
    pub takeback_declined: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub yote: Option<YoteBoard>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub nsolo: Option<NsoloBoard>,
    pub legal: Vec<Legal>,
    /// Why each place of the person to move that starts no move is refused.
    pub refusals: BTreeMap<String, &'static str>,
    pub last: Option<LastMove>,
    pub status: Status,
    pub time_control: String,
    pub team_size: u8,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub teams: Option<BTreeMap<Side, Vec<TeamMember>>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub next_hand: Option<NextHand>,
    pub clocks: Option<BTreeMap<Side, i64>>,
    pub running: Option<Side>,
    pub rematch: Option<String>,
}

#[derive(Debug, Serialize)]
pub struct TeamMember {
    pub name: String,
    pub online: bool,
}

#[derive(Debug, Serialize)]
pub struct NextHand {
    pub side: Side,
    pub name: String,
    pub index: u8,
}

#[derive(Debug, Serialize)]
pub struct YoteBoard {
    pub board: BTreeMap<String, String>,
    pub reserve: BTreeMap<String, u8>,
    pub captured: BTreeMap<String, u8>,
    pub quiet: u8,
    pub quiet_limit: u8,
}

#[derive(Debug, Serialize)]
pub struct NsoloBoard {
    pub rows: BTreeMap<String, Vec<u8>>,
    pub stones: BTreeMap<String, u32>,
}

/// A legal move in the compact form of each game.
#[derive(Debug, Serialize)]
#[serde(untagged)]
pub enum Legal {
    Yote {
        #[serde(rename = "move")]
        notation: String,
        kind: &'static str,
        #[serde(skip_serializing_if = "Option::is_none")]
        from: Option<String>,
        to: String,
        #[serde(skip_serializing_if = "Option::is_none")]
        jumped: Option<String>,
        #[serde(skip_serializing_if = "Option::is_none")]
        second: Option<Option<String>>,
    },
    Nsolo {
        pit: String,
        bonus: u8,
        capture: Option<String>,
    },
}

#[derive(Debug, Serialize)]
pub struct LastMove {
    pub ply: usize,
    pub by: String,
    #[serde(rename = "move")]
    pub notation: String,
    pub animation: serde_json::Value,
}

fn color_name(c: Color) -> String {
    c.to_string()
}

fn yote_board(pos: &yote::Position) -> YoteBoard {
    let colors = [Color::Red, Color::Black];
    YoteBoard {
        board: Square::all()
            .filter_map(|sq| pos.ball_at(sq).map(|c| (sq.to_string(), color_name(c))))
            .collect(),
        reserve: colors
            .iter()
            .map(|c| (color_name(*c), pos.reserve(*c)))
            .collect(),
        // Balls a side has taken are the ones its opponent lost.
        captured: colors
            .iter()
            .map(|c| (color_name(*c), pos.captured(c.other())))
            .collect(),
        quiet: pos.quiet(),
        quiet_limit: yote::QUIET_LIMIT,
    }
}

fn yote_parts(m: yote::Move) -> (&'static str, Option<Square>, Square, Option<Option<String>>) {
    match m {
        yote::Move::Place { to } => ("place", None, to, None),
        yote::Move::Step { from, to } => ("step", Some(from), to, None),
        yote::Move::Capture { from, to, second } => {
            let second = match second {
                Some(Second::Board(sq)) => Some(sq.to_string()),
                Some(Second::Reserve) => Some("reserve".to_owned()),
                None => None,
            };
            ("capture", Some(from), to, Some(second))
        }
    }
}

fn yote_legal(m: yote::Move) -> Legal {
    let (kind, from, to, second) = yote_parts(m);
    Legal::Yote {
        notation: m.to_string(),
        kind,
        from: from.map(|s| s.to_string()),
        to: to.to_string(),
        jumped: m.jumped().map(|s| s.to_string()),
        second,
    }
}

fn yote_animation(m: yote::Move) -> serde_json::Value {
    let (kind, from, to, second) = yote_parts(m);
    serde_json::json!({
        "kind": kind,
        "from": from.map(|s| s.to_string()),
        "to": to.to_string(),
        "jumped": m.jumped().map(|s| s.to_string()),
        "second": second.flatten(),
    })
}

fn nsolo_board(pos: &nsolo::Position) -> NsoloBoard {
    let row = |r: Row| {
        (1..=pos.size())
            .map(|c| Pit::new(r, c).and_then(|p| pos.count(p)).unwrap_or(0))
            .collect()
    };
    NsoloBoard {
        rows: [("A", Row::A), ("B", Row::B), ("C", Row::C), ("D", Row::D)]
            .into_iter()
            .map(|(name, r)| (name.to_owned(), row(r)))
            .collect(),
        stones: [nsolo::Side::South, nsolo::Side::North]
            .iter()
            .map(|s| (s.to_string(), pos.stones(*s)))
            .collect(),
    }
}

fn nsolo_legal(pos: &nsolo::Position) -> Vec<Legal> {
    pos.legal_origins()
        .iter()
        .map(|o| {
            let sown = pos.sow_pit(o.pit).expect("a legal origin sows");
            let capture = (sown.captured() > 0).then(|| {
                let end = sown.end();
                let opposite = if end.row() == Row::B { Row::C } else { Row::B };
                Pit::new(opposite, end.col()).map_or_else(String::new, |p| p.to_string())
            });
            Legal::Nsolo {
                pit: o.pit.to_string(),
                bonus: o.bonus,
                capture,
            }
        })
        .collect()
}

fn nsolo_animation(pos: &nsolo::Position, m: &nsolo::Move) -> serde_json::Value {
    let steps: Vec<serde_json::Value> = pos
        .trace(m)
        .unwrap_or_default()
        .into_iter()
        .map(|s| match s {
            Step::Lift { pit, count, relay } => {
                serde_json::json!({"lift": pit.to_string(), "count": count, "relay": relay})
            }
            Step::Drop { pit } => serde_json::json!({"drop": pit.to_string()}),
            Step::Capture { pit, count } => {
                serde_json::json!({"capture": pit.to_string(), "count": count})
            }
            Step::Bonus { pit, count } => {
                serde_json::json!({"bonus": pit.to_string(), "count": count})
            }
        })
        .collect();
    serde_json::json!({ "steps": steps })
}

fn last_move<P: GamePosition>(
    record: &Record<P>,
    animate: impl Fn(&P, &P::Move) -> serde_json::Value,
) -> Option<LastMove> {
    let ply = record.ply().checked_sub(1)?;
    let before = record.position_at(ply)?;
    let m = record.moves().last()?;
    Some(LastMove {
        ply,
        by: before.turn().to_string(),
        notation: m.to_string(),
        animation: animate(before, m),
    })
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
                        online: g
                            .presence
                            .get(&(m.side, m.position))
                            .is_some_and(|n| *n > 0),
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
        Play::Yote(r) => r
            .position()
            .legal_moves()
            .iter()
            .map(|m| yote_legal(*m))
            .collect(),
        Play::Nsolo(r) => nsolo_legal(r.position()),
    }
}

/// Why the places the side to move might tap start no move, by name: its
/// own holes or pits, and in Yoté the empty holes once its reserve is empty
/// (a board needs no word for the opponent's places).
///
/// The places a legal move starts from are skipped: their answer is known,
/// and asking the rules again would sow every Nsolo candidate a second time.
fn refusals(g: &Game, legal: &[Legal]) -> BTreeMap<String, &'static str> {
    if g.status() != Status::Playing || g.machine_to_move() {
        return BTreeMap::new();
    }
    let origins: std::collections::HashSet<&str> = legal
        .iter()
        .map(|l| match l {
            Legal::Yote { from, to, .. } => from.as_deref().unwrap_or(to),
            Legal::Nsolo { pit, .. } => pit,
        })
        .collect();
    let open = |name: &String| !origins.contains(name.as_str());
    match &g.play {
        Play::Yote(r) => {
            let pos = r.position();
            let mine = pos.balls(pos.turn())
                | if pos.reserve(pos.turn()) == 0 {
                    pos.empty()
                } else {
                    0
                };
            Square::all()
                .filter(|sq| mine & sq.bit() != 0)
                .map(|sq| (sq, sq.to_string()))
                .filter(|(_, name)| open(name))
                .filter_map(|(sq, name)| pos.refusal(sq).map(|why| (name, why.code())))
                .collect()
        }
        Play::Nsolo(r) => {
            let pos = r.position();
            let rows = match pos.turn() {
                nsolo::Side::South => [Row::A, Row::B],
                nsolo::Side::North => [Row::C, Row::D],
            };
            rows.into_iter()
                .flat_map(|row| (1..=pos.size()).filter_map(move |col| Pit::new(row, col)))
                .map(|pit| (pit, pit.to_string()))
                .filter(|(_, name)| open(name))
                .filter_map(|(pit, name)| pos.refusal(pit).map(|why| (name, why.code())))
                .collect()
        }
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
        Play::Yote(r) => (
            Some(yote_board(r.position())),
            None,
            last_move(r, |_, m| yote_animation(*m)),
        ),
        Play::Nsolo(r) => (
            None,
            Some(nsolo_board(r.position())),
            last_move(r, nsolo_animation),
        ),
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
    }
}

fn frames_of<P: GamePosition>(
    record: &Record<P>,
    board: impl Fn(&P) -> serde_json::Value,
    animate: impl Fn(&P, &P::Move) -> serde_json::Value,
) -> Vec<serde_json::Value> {
    (0..=record.ply())
        .filter_map(|ply| {
            let pos = record.position_at(ply)?;
            let last = ply.checked_sub(1).and_then(|prev| {
                let before = record.position_at(prev)?;
                let m = &record.moves()[prev];
                Some(serde_json::json!({
                    "ply": prev, "by": before.turn().to_string(), "move": m.to_string(),
                    "animation": animate(before, m),
                }))
            });
            let mut frame = serde_json::json!({ "ply": ply, "fen": pos.to_string(), "turn": pos.turn().to_string(), "last": last });
            frame[P::NAME] = board(pos);
            Some(frame)
        })
        .collect()
}

/// Every position of a game, with the move that led to it, for the replay viewer.
pub fn frames(play: &Play) -> Vec<serde_json::Value> {
    match play {
        Play::Yote(r) => frames_of(
            r,
            |p| serde_json::to_value(yote_board(p)).unwrap_or_default(),
            |_, m| yote_animation(*m),
        ),
        Play::Nsolo(r) => frames_of(
            r,
            |p| serde_json::to_value(nsolo_board(p)).unwrap_or_default(),
            nsolo_animation,
        ),
    }
}
