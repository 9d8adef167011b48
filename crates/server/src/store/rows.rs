//! Rows into types. A stored word the server does not know (a side, a
//! status, a time control) is a decoding error, so a game that holds one is
//! quarantined rather than misread.

use std::str::FromStr;

use sqlx::Row;
use sqlx::any::AnyRow;

use super::{GameRow, Listing, Member, StoredMove};
use crate::clock::TimeControl;
use crate::domain::{EndReason, Ended, Side};

pub(super) const LIST_COLUMNS: &str = "id, game, size, opponent, human, time_control, \
    team_size, status, ply, result_winner, result_reason, finished_at, rated, rating_min, \
    rating_max";

pub(super) const GAME_COLUMNS: &str = "id, game, size, start_fen, opponent, level, human, \
    seat_hash, ended_winner, ended_reason, team_size, time_control, started_at_ms, rematch_id, \
    damaged, account_id, rated, rating_min, rating_max, clock_credit_ms";

fn word<T: FromStr>(row: &AnyRow, column: &str) -> sqlx::Result<T>
where
    T::Err: std::error::Error + Send + Sync + 'static,
{
    let text: String = row.try_get(column)?;
    text.parse()
        .map_err(|e: T::Err| sqlx::Error::Decode(e.into()))
}

fn optional_word<T: FromStr>(row: &AnyRow, column: &str) -> sqlx::Result<Option<T>>
where
    T::Err: std::error::Error + Send + Sync + 'static,
{
    let text: Option<String> = row.try_get(column)?;
    text.map(|t| t.parse().map_err(|e: T::Err| sqlx::Error::Decode(e.into())))
        .transpose()
}

fn small(row: &AnyRow, column: &str) -> sqlx::Result<u8> {
    let n: i64 = row.try_get(column)?;
    u8::try_from(n).map_err(|e| sqlx::Error::Decode(e.into()))
}

fn count(row: &AnyRow, column: &str) -> sqlx::Result<usize> {
    let n: i64 = row.try_get(column)?;
    usize::try_from(n).map_err(|e| sqlx::Error::Decode(e.into()))
}

fn ended_from(row: &AnyRow, winner: &str, reason: &str) -> sqlx::Result<Option<Ended>> {
    let reason: Option<EndReason> = optional_word(row, reason)?;
    let winner: Option<Side> = optional_word(row, winner)?;
    Ok(reason.map(|reason| Ended { winner, reason }))
}

fn time_control(row: &AnyRow) -> sqlx::Result<TimeControl> {
    let text: String = row.try_get("time_control")?;
    text.parse()
        .map_err(|e: String| sqlx::Error::Decode(e.into()))
}

pub(super) fn member(r: &AnyRow) -> sqlx::Result<Member> {
    Ok(Member {
        side: word(r, "side")?,
        position: small(r, "position")?,
        name: r.try_get("name")?,
        seat_hash: r.try_get("seat_hash")?,
        account: r.try_get("account_id")?,
        bot: r.try_get::<i64, _>("bot")? != 0,
    })
}

pub(super) fn game_row(r: &AnyRow) -> sqlx::Result<GameRow> {
    Ok(GameRow {
        id: r.try_get("id")?,
        kind: word(r, "game")?,
        size: small(r, "size")?,
        start_fen: r.try_get("start_fen")?,
        opponent: word(r, "opponent")?,
        level: word(r, "level")?,
        human: optional_word(r, "human")?,
        seat_hash: r.try_get("seat_hash")?,
        ended: ended_from(r, "ended_winner", "ended_reason")?,
        team_size: small(r, "team_size")?,
        time_control: time_control(r)?,
        started_at_ms: r.try_get("started_at_ms")?,
        rematch_id: r.try_get("rematch_id")?,
        damaged: r.try_get("damaged")?,
        account: r.try_get("account_id")?,
        rated: r.try_get::<i64, _>("rated")? != 0,
        rating_range: match (r.try_get("rating_min")?, r.try_get("rating_max")?) {
            (Some(min), Some(max)) => Some((min, max)),
            _ => None,
        },
        clock_credit_ms: r.try_get("clock_credit_ms")?,
    })
}

pub(super) fn stored_move(r: &AnyRow) -> sqlx::Result<StoredMove> {
    Ok(StoredMove {
        ply: count(r, "ply")?,
        notation: r.try_get("notation")?,
        played_at_ms: r.try_get("played_at_ms")?,
        clock_ms: r.try_get("clock_ms")?,
    })
}

pub(super) fn listing(r: &AnyRow) -> sqlx::Result<Listing> {
    Ok(Listing {
        id: r.try_get("id")?,
        kind: word(r, "game")?,
        size: small(r, "size")?,
        opponent: word(r, "opponent")?,
        human: optional_word(r, "human")?,
        time_control: time_control(r)?,
        team_size: small(r, "team_size")?,
        status: word(r, "status")?,
        result: ended_from(r, "result_winner", "result_reason")?,
        ply: count(r, "ply")?,
        finished_at: r.try_get("finished_at")?,
        rated: r.try_get::<i64, _>("rated")? != 0,
        rating_range: match (r.try_get("rating_min")?, r.try_get("rating_max")?) {
            (Some(min), Some(max)) => Some((min, max)),
            _ => None,
        },
        members: Vec::new(),
    })
}

pub(super) fn numbered_move(r: &AnyRow) -> sqlx::Result<(usize, String)> {
    Ok((count(r, "ply")?, r.try_get("notation")?))
}
