-- Palabre on PostgreSQL: the same tables as the SQLite migrations end with
-- (integers are BIGINT so both backends decode them as i64). A game's
-- position is its start position replayed through its moves, so a move row
-- is the unit of durability.
CREATE TABLE games (
    id            TEXT PRIMARY KEY,
    game          TEXT NOT NULL,
    size          BIGINT NOT NULL,
    start_fen     TEXT NOT NULL,
    opponent      TEXT NOT NULL,
    level         TEXT NOT NULL,
    human         TEXT,
    seat_hash     TEXT NOT NULL,
    ended_winner  TEXT,
    ended_reason  TEXT,
    created_at    BIGINT NOT NULL,
    updated_at    BIGINT NOT NULL,
    team_size     BIGINT NOT NULL DEFAULT 1,
    time_control  TEXT NOT NULL DEFAULT 'none',
    started_at_ms BIGINT,
    rematch_id    TEXT,
    result_winner TEXT,
    result_reason TEXT,
    finished_at   BIGINT,
    status        TEXT NOT NULL DEFAULT 'playing',
    ply           BIGINT NOT NULL DEFAULT 0,
    machine_due   BIGINT NOT NULL DEFAULT 0,
    deadline_ms   BIGINT,
    damaged       TEXT
);

CREATE TABLE moves (
    game_id       TEXT NOT NULL REFERENCES games(id),
    ply           BIGINT NOT NULL,
    notation      TEXT NOT NULL,
    played_at     BIGINT NOT NULL,
    played_at_ms  BIGINT,
    clock_ms      BIGINT,
    status        TEXT,
    result_winner TEXT,
    result_reason TEXT,
    machine_due   BIGINT,
    deadline_ms   BIGINT,
    PRIMARY KEY (game_id, ply)
);

CREATE TABLE seats (
    game_id    TEXT NOT NULL REFERENCES games(id),
    side       TEXT NOT NULL,
    position   BIGINT NOT NULL,
    name       TEXT NOT NULL,
    seat_hash  TEXT NOT NULL,
    PRIMARY KEY (game_id, side, position)
);

CREATE INDEX games_open ON games (status, created_at) WHERE opponent = 'online';
CREATE INDEX games_finished ON games (status, finished_at);
CREATE INDEX games_deadline ON games (deadline_ms) WHERE deadline_ms IS NOT NULL;
CREATE INDEX games_machine_due ON games (machine_due) WHERE machine_due = 1;

-- Storing a move is one statement: the move row carries the summary after
-- it and this trigger copies it to the games row, in the same transaction.
CREATE FUNCTION moves_summary() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    UPDATE games SET
        status = NEW.status,
        ply = NEW.ply + 1,
        result_winner = NEW.result_winner,
        result_reason = NEW.result_reason,
        finished_at = CASE WHEN NEW.result_reason IS NULL THEN NULL
                           ELSE COALESCE(finished_at, NEW.played_at) END,
        machine_due = NEW.machine_due,
        deadline_ms = NEW.deadline_ms,
        updated_at = NEW.played_at
    WHERE id = NEW.game_id;
    RETURN NULL;
END
$$;

CREATE TRIGGER moves_summary AFTER INSERT ON moves
    FOR EACH ROW WHEN (NEW.status IS NOT NULL) EXECUTE FUNCTION moves_summary();
