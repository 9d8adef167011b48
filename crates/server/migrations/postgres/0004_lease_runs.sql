-- Which start of a node holds a lease. Two processes given one node name (a
-- restart, or a mistake) must not share a fence, nor renew or release each
-- other's leases. No start is numbered 0: a lease written before this column
-- is taken back by its node under a new epoch, like any earlier start's.
ALTER TABLE leases ADD COLUMN run BIGINT NOT NULL DEFAULT 0;
