-- Replica leases: each live replica renews its row; the tasks of a replica whose lease ran
-- out are marked failed by any other.
CREATE TABLE replicas (
    id         TEXT PRIMARY KEY,
    started_at TIMESTAMPTZ NOT NULL DEFAULT now(),
    seen_at    TIMESTAMPTZ NOT NULL DEFAULT now()
);
