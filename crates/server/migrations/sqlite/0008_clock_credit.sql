-- Time given back to the running clock since the last move: the bus's
-- outages, during which no one could move. The next move ends it.
ALTER TABLE games ADD COLUMN clock_credit_ms BIGINT NOT NULL DEFAULT 0;
