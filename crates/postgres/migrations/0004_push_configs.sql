-- Push-notification configs (webhooks) of tasks, as the embedded store keeps them: one JSON
-- document per (task, config id), with its owner for the owner-only reads. No foreign key to
-- `tasks`: a config is attached to a task before the task's first write (a blocking send
-- stores its task once, at the end); configs of tasks that are gone are purged by upkeep.
CREATE TABLE push_configs (
    task_id    TEXT COLLATE "C" NOT NULL,
    id         TEXT COLLATE "C" NOT NULL,
    owner      TEXT NOT NULL,
    config     TEXT NOT NULL,   -- the config's JSON
    created_at BIGINT NOT NULL, -- ms since the epoch
    PRIMARY KEY (task_id, id)
);
CREATE INDEX push_configs_created ON push_configs (created_at);
