-- Which node owns a game in a cluster, until when, and the epoch that
-- fences the writes of an owner that lost its lease.
CREATE TABLE leases (
    game_id    TEXT PRIMARY KEY,
    node       TEXT NOT NULL,
    epoch      BIGINT NOT NULL,
    expires_ms BIGINT NOT NULL
);
CREATE INDEX leases_node ON leases (node);
