-- Accounts, their sessions and their ratings. A guest plays as before, with
-- seats only; a signed-in player's seats carry their account, so that their
-- games open from any device.
CREATE TABLE accounts (
    id            INTEGER PRIMARY KEY,
    username      TEXT NOT NULL,
    -- The name in lower case: names are unique whatever their case.
    username_key  TEXT NOT NULL UNIQUE,
    password_hash TEXT NOT NULL,
    bot           INTEGER NOT NULL DEFAULT 0,
    -- Raised when the password changes: sessions made before it end.
    auth_epoch    INTEGER NOT NULL DEFAULT 0,
    created_at    INTEGER NOT NULL
);

CREATE TABLE sessions (
    id          TEXT PRIMARY KEY,
    data        TEXT NOT NULL,
    expires_at  INTEGER NOT NULL
);
CREATE INDEX sessions_expiry ON sessions (expires_at);

-- One row per account and pool (yote, nsolo8, nsolo): Glicko-2's three
-- numbers and the games that moved them.
CREATE TABLE ratings (
    account_id  INTEGER NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
    pool        TEXT NOT NULL,
    rating      REAL NOT NULL,
    deviation   REAL NOT NULL,
    volatility  REAL NOT NULL,
    games       INTEGER NOT NULL,
    wins        INTEGER NOT NULL,
    draws       INTEGER NOT NULL,
    losses      INTEGER NOT NULL,
    PRIMARY KEY (account_id, pool)
);
CREATE INDEX ratings_board ON ratings (pool, rating);

-- The rating after each rated game, for the profile's chart.
CREATE TABLE rating_history (
    account_id  INTEGER NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
    pool        TEXT NOT NULL,
    game_id     TEXT NOT NULL,
    at          INTEGER NOT NULL,
    rating      REAL NOT NULL,
    deviation   REAL NOT NULL,
    diff        REAL NOT NULL,
    -- The pool's games after this one: the order of play within a second.
    games       INTEGER NOT NULL,
    PRIMARY KEY (account_id, game_id)
);

-- Personal API tokens: only their SHA-256 hash is kept.
CREATE TABLE tokens (
    id           TEXT PRIMARY KEY,
    hash         TEXT NOT NULL UNIQUE,
    account_id   INTEGER NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
    description  TEXT NOT NULL,
    scopes       TEXT NOT NULL,
    created_at   INTEGER NOT NULL
);

-- Challenges between accounts (the Bot API's, and people's to bots).
CREATE TABLE challenges (
    id             TEXT PRIMARY KEY,
    challenger_id  INTEGER NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
    dest_id        INTEGER NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
    game           TEXT NOT NULL,
    size           INTEGER NOT NULL,
    rated          INTEGER NOT NULL,
    time_control   TEXT NOT NULL,
    side           TEXT,
    -- created, accepted, declined or canceled.
    status         TEXT NOT NULL,
    game_id        TEXT,
    created_at     INTEGER NOT NULL
);
CREATE INDEX challenges_dest ON challenges (dest_id, status);

ALTER TABLE seats ADD COLUMN account_id INTEGER;
ALTER TABLE seats ADD COLUMN bot INTEGER NOT NULL DEFAULT 0;
CREATE INDEX seats_account ON seats (account_id) WHERE account_id IS NOT NULL;
-- The account of a game against the machine or on one screen.
ALTER TABLE games ADD COLUMN account_id INTEGER;
CREATE INDEX games_account ON games (account_id) WHERE account_id IS NOT NULL;
ALTER TABLE games ADD COLUMN rated INTEGER NOT NULL DEFAULT 0;
-- The ratings were updated for the result (or there was nothing to rate).
ALTER TABLE games ADD COLUMN rating_done INTEGER NOT NULL DEFAULT 0;
-- The ratings a rated seek accepts.
ALTER TABLE games ADD COLUMN rating_min INTEGER;
ALTER TABLE games ADD COLUMN rating_max INTEGER;
CREATE INDEX games_unrated ON games (status) WHERE rated = 1 AND rating_done = 0;
