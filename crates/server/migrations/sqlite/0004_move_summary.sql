-- A move row carries the game's summary after it, and a trigger copies it
-- to the games row: storing a move is one statement, so one round trip and
-- atomic on its own.
ALTER TABLE moves ADD COLUMN status TEXT;
ALTER TABLE moves ADD COLUMN result_winner TEXT;
ALTER TABLE moves ADD COLUMN result_reason TEXT;
ALTER TABLE moves ADD COLUMN machine_due INTEGER;
ALTER TABLE moves ADD COLUMN deadline_ms INTEGER;

CREATE TRIGGER moves_summary AFTER INSERT ON moves WHEN NEW.status IS NOT NULL
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
END;
