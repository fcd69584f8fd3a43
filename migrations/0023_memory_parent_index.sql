-- migrate: outside a transaction
--
-- memories.parent_id references memories (id): a version names the memory it replaced. It had
-- no index, so for every deleted memory PostgreSQL's foreign-key check read the whole table for
-- rows naming it as their parent. Deleting a space deletes its memories (ON DELETE CASCADE):
-- at 50,000 of a 104,000-row table that DELETE was still running after eight minutes of CPU
-- (bench/bucket_skew.py), and it grows with the space times the table. Only versions have a
-- parent, so the index holds only them (a save of a new fact does not write it).
--
-- Built CONCURRENTLY (outside a transaction, db/migrator.py) so a large memories table keeps
-- taking writes while it builds.
CREATE INDEX CONCURRENTLY IF NOT EXISTS memories_parent_idx
    ON memories (parent_id) WHERE parent_id IS NOT NULL;
