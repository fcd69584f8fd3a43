-- Which transaction wrote each memory, so a save's post-write check reads only the rows its
-- decision could not see (db/saves.py, docs/pgvector-halfvec-search.md, "Write throughput").
--
-- A save decides which memory it becomes the next version of from one snapshot, writes, and
-- then checks that no close memory arrived meanwhile. That check was a second nearest-neighbour
-- query over the space's HNSW graph, and under concurrent saves it ran for nearly every save
-- (1,801 of 1,853 with 8 writers into a 100k space): another save always moved the write
-- counter. The rows it is looking for are exactly those whose writing transaction the
-- decision's snapshot did not see. With the writer's transaction id stored on the row and
-- indexed with the space, the check reads those few rows by range (ids from the snapshot's
-- xmin up) and compares each one exactly: no graph walk, and no row it did not need.
--
-- Existing rows keep NULL: they were all written before any save running now decided, so no
-- check ever needs them, and adding a nullable column with no default rewrites nothing. The
-- default is set afterwards, for rows written from now on (INSERT and COPY alike). xid8 is the
-- 64-bit transaction id: it does not wrap around, so ordering by it is safe for the table's
-- lifetime.
ALTER TABLE memories ADD COLUMN write_xid xid8;
ALTER TABLE memories ALTER COLUMN write_xid SET DEFAULT pg_current_xact_id();
CREATE INDEX memories_space_write_xid_idx ON memories (space_id, write_xid)
    WHERE is_latest AND NOT is_forgotten AND write_xid IS NOT NULL;
