-- Online play: several seats a game (teams), time controls, results kept for
-- the records, rematches.
ALTER TABLE games ADD COLUMN team_size INTEGER NOT NULL DEFAULT 1;
ALTER TABLE games ADD COLUMN time_control TEXT NOT NULL DEFAULT 'none';
ALTER TABLE games ADD COLUMN started_at_ms INTEGER;
ALTER TABLE games ADD COLUMN rematch_id TEXT;
ALTER TABLE games ADD COLUMN result_winner TEXT;
ALTER TABLE games ADD COLUMN result_reason TEXT;
ALTER TABLE games ADD COLUMN finished_at INTEGER;
ALTER TABLE moves ADD COLUMN played_at_ms INTEGER;
ALTER TABLE moves ADD COLUMN clock_ms INTEGER;

CREATE TABLE seats (
    game_id    TEXT NOT NULL REFERENCES games(id),
    side       TEXT NOT NULL,
    position   INTEGER NOT NULL,
    name       TEXT NOT NULL,
    seat_hash  TEXT NOT NULL,
    PRIMARY KEY (game_id, side, position)
);
