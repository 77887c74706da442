-- Tasks and API keys, as the embedded SQLite store keeps them.
-- Ids compare bytewise (COLLATE "C"), as in SQLite: list pages are ordered by (created_at, id).
CREATE TABLE tasks (
    id         TEXT COLLATE "C" PRIMARY KEY,
    owner      TEXT NOT NULL,
    skill      TEXT NOT NULL,
    state      TEXT NOT NULL,
    context_id TEXT NOT NULL,
    created_at BIGINT NOT NULL,   -- ms since the epoch
    expires_at BIGINT NOT NULL,   -- ms since the epoch
    task       BYTEA NOT NULL,    -- deflated JSON of what tasks/get returns
    bytes      INTEGER NOT NULL,  -- length of `task`
    replica    TEXT               -- the replica running it, while it is unfinished
);
CREATE INDEX tasks_expires ON tasks (expires_at);
CREATE INDEX tasks_created ON tasks (created_at);
CREATE INDEX tasks_owner ON tasks (owner, created_at DESC, id DESC);
CREATE INDEX tasks_unfinished ON tasks (replica) WHERE state IN ('submitted', 'working');

CREATE TABLE api_keys (
    id         TEXT PRIMARY KEY,
    name       TEXT NOT NULL,
    plan       TEXT NOT NULL,
    token_hash TEXT NOT NULL UNIQUE,
    created_at TEXT NOT NULL,
    revoked_at TEXT
);
