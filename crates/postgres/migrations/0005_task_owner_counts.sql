-- Tasks per owner, kept by statement-level triggers, so that the per-caller cap is checked with
-- one row read instead of a COUNT over the caller's tasks at every write. Owners are locked in
-- name order (inserts and deletes alike), so concurrent writers cannot deadlock on them.
CREATE TABLE task_owner_counts (
    owner TEXT PRIMARY KEY,
    tasks BIGINT NOT NULL
);
INSERT INTO task_owner_counts (owner, tasks) SELECT owner, COUNT(*) FROM tasks GROUP BY owner;

CREATE FUNCTION task_owner_counts_insert() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    INSERT INTO task_owner_counts (owner, tasks)
        SELECT owner, COUNT(*) FROM inserted GROUP BY owner ORDER BY owner
    ON CONFLICT (owner) DO UPDATE SET tasks = task_owner_counts.tasks + EXCLUDED.tasks;
    RETURN NULL;
END $$;

CREATE FUNCTION task_owner_counts_delete() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
    r RECORD;
BEGIN
    FOR r IN SELECT owner, COUNT(*) AS n FROM deleted GROUP BY owner ORDER BY owner LOOP
        UPDATE task_owner_counts SET tasks = tasks - r.n WHERE owner = r.owner;
    END LOOP;
    RETURN NULL;
END $$;

-- With INSERT … ON CONFLICT DO UPDATE, `inserted` holds only the rows actually inserted.
CREATE TRIGGER tasks_count_insert AFTER INSERT ON tasks
    REFERENCING NEW TABLE AS inserted FOR EACH STATEMENT
    EXECUTE FUNCTION task_owner_counts_insert();
CREATE TRIGGER tasks_count_delete AFTER DELETE ON tasks
    REFERENCING OLD TABLE AS deleted FOR EACH STATEMENT
    EXECUTE FUNCTION task_owner_counts_delete();
