-- migrate: outside a transaction
--
-- Two small indexes for a forget's lookups of what is no longer live, so they read what they
-- find instead of filtering every row of the space (a reviewer measured ~5 ms per 20k rows,
-- ~25 ms at 100k per space, for each of them; db/forgotten.py, db/statements.held_back):
--
-- * memories_space_past_hash_idx: rows that left the live set (an older version, or a
--   forgotten one) by text. A forget whose text is not a live memory's asks whether it was
--   forgotten already or is an older wording; a document's commit asks whether a person
--   corrected or forgot one of its texts. Live rows are not in it, so a save that creates a
--   memory does not write it (a new version or a forget does: one entry).
-- * memories_space_forgotten_idx: a space's forgotten current memories, newest first: the
--   window a reworded repeat of a forget is compared with.
--
-- Built CONCURRENTLY (outside a transaction, db/migrator.py) so a large memories table keeps
-- taking writes while they build. Run again after a failure or a timeout, the migrator first
-- drops an index a failed build left invalid; one already built is kept.
CREATE INDEX CONCURRENTLY IF NOT EXISTS memories_space_past_hash_idx
    ON memories (space_id, content_hash) WHERE NOT is_latest OR is_forgotten;
CREATE INDEX CONCURRENTLY IF NOT EXISTS memories_space_forgotten_idx
    ON memories (space_id, forgotten_at DESC, id) WHERE is_latest AND is_forgotten;
