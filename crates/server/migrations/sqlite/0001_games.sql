-- Games and their moves. A game's position is always its start position
-- replayed through its moves, so a move row is the unit of durability.
CREATE TABLE games (
    id            TEXT PRIMARY KEY,
    game          TEXT NOT NULL,
    size          INTEGER NOT NULL,
    start_fen     TEXT NOT NULL,
    opponent      TEXT NOT NULL,
    level         TEXT NOT NULL,
    human         TEXT,
    seat_hash     TEXT NOT NULL,
    ended_winner  TEXT,
    ended_reason  TEXT,
    created_at    INTEGER NOT NULL,
    updated_at    INTEGER NOT NULL
);

CREATE TABLE moves (
    game_id    TEXT NOT NULL REFERENCES games(id),
    ply        INTEGER NOT NULL,
    notation   TEXT NOT NULL,
    played_at  INTEGER NOT NULL,
    PRIMARY KEY (game_id, ply)
);
