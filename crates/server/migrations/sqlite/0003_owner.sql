-- One owner per game: the games row carries what lists and timers need, so
-- they are answered by indexed queries instead of replaying games.
ALTER TABLE games ADD COLUMN status TEXT NOT NULL DEFAULT 'playing';
ALTER TABLE games ADD COLUMN ply INTEGER NOT NULL DEFAULT 0;
-- The machine is to move (so a restart wakes exactly those games).
ALTER TABLE games ADD COLUMN machine_due INTEGER NOT NULL DEFAULT 0;
-- When the running clock falls, in ms since the epoch.
ALTER TABLE games ADD COLUMN deadline_ms INTEGER;
-- Why the stored moves do not replay, for a quarantined game.
ALTER TABLE games ADD COLUMN damaged TEXT;

UPDATE games SET ply = (SELECT COUNT(*) FROM moves m WHERE m.game_id = games.id);
UPDATE games SET status = CASE
    WHEN result_reason IS NOT NULL OR ended_reason IS NOT NULL THEN 'finished'
    WHEN opponent = 'online' AND started_at_ms IS NULL THEN 'waiting'
    ELSE 'playing' END;
UPDATE games SET machine_due = 1 WHERE opponent = 'machine' AND status = 'playing';

CREATE INDEX games_open ON games (status, created_at) WHERE opponent = 'online';
CREATE INDEX games_finished ON games (status, finished_at);
CREATE INDEX games_deadline ON games (deadline_ms) WHERE deadline_ms IS NOT NULL;
CREATE INDEX games_machine_due ON games (machine_due) WHERE machine_due = 1;
