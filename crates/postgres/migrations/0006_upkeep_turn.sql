-- Whose turn the task store's upkeep is (one row): every replica asks at its purge interval;
-- the one whose conditional UPDATE finds the last upkeep old enough does it, the others skip.
-- So ten replicas purge as often as one, without a leader that could die holding the job.
CREATE TABLE upkeep_turn (
    singleton BOOLEAN PRIMARY KEY DEFAULT TRUE CHECK (singleton),
    replica   TEXT NOT NULL,
    at        TIMESTAMPTZ NOT NULL
);
INSERT INTO upkeep_turn (replica, at) VALUES ('', '-infinity');
