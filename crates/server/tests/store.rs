//! The storage layer, on both backends: every check runs on an SQLite file
//! and on a fresh PostgreSQL database. PostgreSQL is skipped (and says so)
//! only when it is unreachable outside CI; with `CI=true` it must be there.

use palabre_ai::Level;
use palabre_server::clock::TimeControl;
use palabre_server::domain::{EndReason, Ended, GameKind, Opponent, Side, Status};
use palabre_server::store::{
    Backend, Fence, GameRow, Holder, Member, Store, StoreError, Summary, scratch_postgres,
};
use sqlx::migrate::MigrateDatabase;

const POSTGRES: &str = "postgres://root@127.0.0.1:5432/test";

/// A fresh PostgreSQL database, or `None` (outside CI) when there is no server.
async fn postgres() -> Option<String> {
    let base = std::env::var("PALABRE_TEST_POSTGRES").unwrap_or_else(|_| POSTGRES.into());
    match scratch_postgres(&base).await {
        Ok(url) => Some(url),
        Err(e) if std::env::var("CI").as_deref() == Ok("true") => {
            panic!("PostgreSQL at {base} is required in CI: {e}")
        }
        Err(e) => {
            eprintln!("skipping PostgreSQL (no server at {base}): {e}");
            None
        }
    }
}

/// Runs `check` on an SQLite file, then on a fresh PostgreSQL database.
macro_rules! on_both {
    ($name:ident, $check:ident) => {
        #[tokio::test]
        async fn $name() {
            let dir = tempfile::tempdir().unwrap();
            let file = dir.path().join("games.db");
            let store = Store::open(file.to_str().unwrap()).await.unwrap();
            assert_eq!(store.backend(), Backend::Sqlite);
            $check(&store).await;
            store.close().await;
            if let Some(url) = postgres().await {
                let store = Store::open(&url).await.unwrap();
                assert_eq!(store.backend(), Backend::Postgres);
                $check(&store).await;
                store.close().await;
                sqlx::Any::force_drop_database(&url).await.unwrap();
            }
        }
    };
}

/// Runs `check` on an SQLite file, then on a fresh PostgreSQL database,
/// giving it the database's name: it opens the store itself, as many times
/// as it needs (each opening stands for one start of a process).
macro_rules! on_both_by_name {
    ($name:ident, $check:ident) => {
        #[tokio::test]
        async fn $name() {
            let dir = tempfile::tempdir().unwrap();
            let file = dir.path().join("games.db");
            $check(file.to_str().unwrap()).await;
            if let Some(url) = postgres().await {
                $check(&url).await;
                sqlx::Any::force_drop_database(&url).await.unwrap();
            }
        }
    };
}

fn row(id: &str, opponent: Opponent) -> GameRow {
    GameRow {
        id: id.into(),
        kind: GameKind::Yote,
        size: 5,
        start_fen: "start".into(),
        opponent,
        level: Level::Confirme,
        human: (opponent == Opponent::Machine).then_some(Side::Red),
        seat_hash: "hash".into(),
        ended: None,
        team_size: 1,
        time_control: TimeControl::None,
        started_at_ms: None,
        rematch_id: None,
        damaged: None,
        account: None,
        rated: false,
        rating_range: None,
        clock_credit_ms: 0,
    }
}

fn summary(status: Status, ply: usize) -> Summary {
    Summary {
        status,
        ply,
        result: None,
        machine_due: false,
        deadline_ms: None,
        clock_credit_ms: 0,
    }
}

fn member(side: Side, name: &str) -> Member {
    Member {
        side,
        position: 0,
        name: name.into(),
        seat_hash: format!("seat-{name}"),
        account: None,
        bot: false,
    }
}

async fn status_of(store: &Store, id: &str) -> (String, i64) {
    sqlx::query_as("SELECT status, ply FROM games WHERE id = $1")
        .bind(id)
        .fetch_one(store.pool())
        .await
        .unwrap()
}

async fn a_game_comes_back_as_it_was_stored(store: &Store) {
    let mut g = row("aaaaaaaaaaaa", Opponent::Online);
    g.time_control = "5+3".parse().unwrap();
    g.kind = GameKind::Nsolo;
    g.size = 12;
    g.human = None;
    store
        .create(
            &g,
            Some(&member(Side::South, "Awa")),
            &summary(Status::Waiting, 0),
        )
        .await
        .unwrap();
    let (back, moves, members) = store.load(&g.id).await.unwrap().unwrap();
    assert_eq!(back, g);
    assert!(moves.is_empty());
    assert_eq!(members, vec![member(Side::South, "Awa")]);
    assert!(store.load("bbbbbbbbbbbb").await.unwrap().is_none());
}
on_both!(round_trip, a_game_comes_back_as_it_was_stored);

async fn a_move_writes_its_summary_and_a_ply_is_taken_once(store: &Store) {
    let g = row("cccccccccccc", Opponent::Machine);
    store
        .create(&g, None, &summary(Status::Playing, 0))
        .await
        .unwrap();
    let mut after = summary(Status::Playing, 1);
    after.machine_due = true;
    after.deadline_ms = Some(42);
    store
        .append_move(&g.id, None, 0, "c3", Some(1000), &after)
        .await
        .unwrap();
    assert_eq!(status_of(store, &g.id).await, ("playing".into(), 1));
    assert_eq!(store.machine_due(10).await.unwrap(), vec![g.id.clone()]);
    assert_eq!(
        store.fallen_flags(41, 10).await.unwrap(),
        Vec::<String>::new()
    );
    assert_eq!(
        store.fallen_flags(42, 10).await.unwrap(),
        vec![g.id.clone()]
    );

    let again = store
        .append_move(&g.id, None, 0, "d4", None, &summary(Status::Playing, 1))
        .await
        .unwrap_err();
    let unique = matches!(&again, StoreError::Db(e)
        if e.as_database_error().is_some_and(|d| d.is_unique_violation()));
    assert!(
        unique,
        "a second move at ply 0 is a unique violation: {again}"
    );
    let (_, moves, _) = store.load(&g.id).await.unwrap().unwrap();
    assert_eq!(moves.len(), 1);
    assert_eq!((moves[0].ply, moves[0].notation.as_str()), (0, "c3"));
    assert_eq!(moves[0].clock_ms, Some(1000));
    assert!(store.machine_due(10).await.unwrap().contains(&g.id));
}
on_both!(
    append_move,
    a_move_writes_its_summary_and_a_ply_is_taken_once
);

async fn a_take_back_deletes_the_later_moves(store: &Store) {
    let g = row("dddddddddddd", Opponent::Local);
    store
        .create(&g, None, &summary(Status::Playing, 0))
        .await
        .unwrap();
    for (ply, m) in ["a1", "b2", "c3"].iter().enumerate() {
        store
            .append_move(
                &g.id,
                None,
                ply,
                m,
                None,
                &summary(Status::Playing, ply + 1),
            )
            .await
            .unwrap();
    }
    store
        .take_back(&g.id, None, 1, &summary(Status::Playing, 1))
        .await
        .unwrap();
    assert_eq!(
        store.moves(&g.id).await.unwrap(),
        vec![(0, "a1".to_string())]
    );
    assert_eq!(status_of(store, &g.id).await, ("playing".into(), 1));
}
on_both!(take_back, a_take_back_deletes_the_later_moves);

async fn an_end_reaches_the_records_and_keeps_its_time(store: &Store) {
    let g = row("eeeeeeeeeeee", Opponent::Online);
    store
        .create(
            &g,
            Some(&member(Side::Red, "Ali")),
            &summary(Status::Waiting, 0),
        )
        .await
        .unwrap();
    let lobby = store.lobby(10).await.unwrap();
    assert_eq!(lobby.len(), 1);
    assert_eq!(lobby[0].members, vec![member(Side::Red, "Ali")]);
    store
        .join(
            &g.id,
            None,
            &member(Side::Black, "Binta"),
            Some(7),
            &summary(Status::Playing, 0),
        )
        .await
        .unwrap();
    let lobby = store.lobby(10).await.unwrap();
    assert_eq!(lobby[0].status, Status::Playing);
    assert_eq!(lobby[0].members.len(), 2);

    let ended = Ended::win(Side::Black, EndReason::Resignation);
    let mut s = summary(Status::Finished, 0);
    s.result = Some(ended);
    store.end(&g.id, None, &ended, &s).await.unwrap();
    assert!(store.lobby(10).await.unwrap().is_empty());
    let records = store.records(10).await.unwrap();
    assert_eq!(records.len(), 1);
    assert_eq!(records[0].result, Some(ended));
    let first = records[0].finished_at.expect("a finished game has a time");
    sqlx::query("UPDATE games SET finished_at = finished_at - 100 WHERE id = $1")
        .bind(&g.id)
        .execute(store.pool())
        .await
        .unwrap();
    store.end(&g.id, None, &ended, &s).await.unwrap();
    let records = store.records(10).await.unwrap();
    assert_eq!(records[0].finished_at, Some(first - 100));
    let (back, _, _) = store.load(&g.id).await.unwrap().unwrap();
    assert_eq!((back.ended, back.started_at_ms), (Some(ended), Some(7)));
}
on_both!(end, an_end_reaches_the_records_and_keeps_its_time);

async fn a_finished_game_has_one_rematch(store: &Store) {
    let g = row("ffffffffffff", Opponent::Online);
    store
        .create(
            &g,
            Some(&member(Side::Red, "Ali")),
            &summary(Status::Finished, 0),
        )
        .await
        .unwrap();
    let first = row("111111111111", Opponent::Online);
    let second = row("222222222222", Opponent::Online);
    let s = summary(Status::Waiting, 0);
    store
        .create_rematch(&g.id, None, &first, &member(Side::Black, "Ali"), &s)
        .await
        .unwrap();
    assert!(
        store
            .create_rematch(&g.id, None, &second, &member(Side::Black, "Ali"), &s)
            .await
            .is_err()
    );
    assert!(store.load(&second.id).await.unwrap().is_none());
    let (back, _, _) = store.load(&g.id).await.unwrap().unwrap();
    assert_eq!(back.rematch_id.as_deref(), Some(first.id.as_str()));
}
on_both!(rematch, a_finished_game_has_one_rematch);

async fn unknown_words_and_damage_are_kept_apart(store: &Store) {
    let g = row("abcabcabcabc", Opponent::Machine);
    let mut s = summary(Status::Playing, 0);
    s.machine_due = true;
    store.create(&g, None, &s).await.unwrap();
    store
        .mark_damaged(&g.id, "ply 3 does not replay")
        .await
        .unwrap();
    let (back, _, _) = store.load(&g.id).await.unwrap().unwrap();
    assert_eq!(back.damaged.as_deref(), Some("ply 3 does not replay"));
    assert_eq!(status_of(store, &g.id).await.0, "damaged");
    assert!(store.machine_due(10).await.unwrap().is_empty());

    sqlx::query("UPDATE games SET human = 'purple' WHERE id = $1")
        .bind(&g.id)
        .execute(store.pool())
        .await
        .unwrap();
    let err = store.load(&g.id).await.unwrap_err();
    assert!(matches!(err, sqlx::Error::Decode(_)), "{err}");
}
on_both!(damage, unknown_words_and_damage_are_kept_apart);

async fn a_lease_fences_the_writes_of_the_node_that_lost_it(store: &Store) {
    let g = row("bcdbcdbcdbcd", Opponent::Local);
    store
        .create(&g, None, &summary(Status::Playing, 0))
        .await
        .unwrap();
    assert_eq!(
        store.acquire("000000000000", "a", 0, 3000).await.unwrap(),
        Holder::Missing
    );
    assert_eq!(
        store.acquire(&g.id, "a", 0, 3000).await.unwrap(),
        Holder::Me(1)
    );
    // Renewing or taking it again keeps the epoch of the same node.
    assert_eq!(
        store.acquire(&g.id, "a", 10, 3010).await.unwrap(),
        Holder::Me(1)
    );
    assert_eq!(
        store.acquire(&g.id, "b", 100, 3100).await.unwrap(),
        Holder::Other {
            node: "a".into(),
            expires_ms: 3010
        }
    );
    let a = Fence {
        node: "a".into(),
        epoch: 1,
    };
    store
        .append_move(&g.id, Some(&a), 0, "a1", None, &summary(Status::Playing, 1))
        .await
        .unwrap();
    let held = store
        .renew("a", std::slice::from_ref(&g.id), 5000)
        .await
        .unwrap();
    assert!(held.contains(&g.id));
    // Node a stops renewing; after expiry node b takes the lease over.
    assert_eq!(
        store.acquire(&g.id, "b", 5001, 8001).await.unwrap(),
        Holder::Me(2)
    );
    let late = store
        .append_move(&g.id, Some(&a), 1, "b2", None, &summary(Status::Playing, 2))
        .await;
    assert!(matches!(late, Err(StoreError::LeaseLost)), "{late:?}");
    let ended = Ended::draw(EndReason::Agreement);
    let late = store
        .end(&g.id, Some(&a), &ended, &summary(Status::Finished, 1))
        .await;
    assert!(matches!(late, Err(StoreError::LeaseLost)));
    assert_eq!(store.moves(&g.id).await.unwrap().len(), 1);
    assert!(
        store
            .renew("a", std::slice::from_ref(&g.id), 9000)
            .await
            .unwrap()
            .is_empty()
    );
    let b = Fence {
        node: "b".into(),
        epoch: 2,
    };
    store
        .append_move(&g.id, Some(&b), 1, "b2", None, &summary(Status::Playing, 2))
        .await
        .unwrap();
    assert_eq!(store.release_all("b").await.unwrap(), 1);
    assert_eq!(
        store.acquire(&g.id, "a", 9000, 12000).await.unwrap(),
        Holder::Me(1)
    );
}
on_both!(leases, a_lease_fences_the_writes_of_the_node_that_lost_it);

async fn a_second_start_of_one_node_name_fences_out_the_first(db: &str) {
    let first = Store::open(db).await.unwrap();
    let g = row("abaabaabaaba", Opponent::Local);
    first
        .create(&g, None, &summary(Status::Playing, 0))
        .await
        .unwrap();
    let Holder::Me(old) = first.acquire(&g.id, "a", 0, 3000).await.unwrap() else {
        panic!("a free lease is taken");
    };
    let old = Fence {
        node: "a".into(),
        epoch: old,
    };
    first
        .append_move(
            &g.id,
            Some(&old),
            0,
            "a1",
            None,
            &summary(Status::Playing, 1),
        )
        .await
        .unwrap();
    // Another process started as "a" (a restart, or a twin by mistake): it
    // takes the lease at once, but under a fence of its own.
    let second = Store::open(db).await.unwrap();
    let Holder::Me(new) = second.acquire(&g.id, "a", 10, 3010).await.unwrap() else {
        panic!("a node takes back the lease of its name at once");
    };
    assert_ne!(new, old.epoch, "two starts of one node share no fence");
    let late = first
        .append_move(
            &g.id,
            Some(&old),
            1,
            "b2",
            None,
            &summary(Status::Playing, 2),
        )
        .await;
    assert!(matches!(late, Err(StoreError::LeaseLost)), "{late:?}");
    assert!(
        first
            .renew("a", std::slice::from_ref(&g.id), 5000)
            .await
            .unwrap()
            .is_empty(),
        "the first start learns at its renewal that it lost the game"
    );
    // The first start stopping releases nothing of the second's.
    assert_eq!(first.release_all("a").await.unwrap(), 0);
    assert_eq!(
        second.acquire(&g.id, "b", 100, 3100).await.unwrap(),
        Holder::Other {
            node: "a".into(),
            expires_ms: 3010
        }
    );
    let new = Fence {
        node: "a".into(),
        epoch: new,
    };
    second
        .append_move(
            &g.id,
            Some(&new),
            1,
            "b2",
            None,
            &summary(Status::Playing, 2),
        )
        .await
        .unwrap();
    assert_eq!(second.moves(&g.id).await.unwrap().len(), 2);
    assert!(
        second
            .renew("a", std::slice::from_ref(&g.id), 6000)
            .await
            .unwrap()
            .contains(&g.id)
    );
    assert_eq!(second.release_all("a").await.unwrap(), 1);
    first.close().await;
    second.close().await;
}
on_both_by_name!(starts, a_second_start_of_one_node_name_fences_out_the_first);

async fn games_that_need_an_owner_and_have_none_are_found(store: &Store) {
    let g = row("cdecdecdecde", Opponent::Machine);
    let mut s = summary(Status::Playing, 0);
    s.machine_due = true;
    store.create(&g, None, &s).await.unwrap();
    let quiet = row("defdefdefdef", Opponent::Local);
    store
        .create(&quiet, None, &summary(Status::Playing, 0))
        .await
        .unwrap();
    assert_eq!(store.orphans(0, 10).await.unwrap(), vec![g.id.clone()]);
    store.acquire(&g.id, "a", 0, 3000).await.unwrap();
    assert!(store.orphans(2999, 10).await.unwrap().is_empty());
    assert_eq!(store.orphans(3001, 10).await.unwrap(), vec![g.id.clone()]);
}
on_both!(orphans, games_that_need_an_owner_and_have_none_are_found);
