-- The profile's stable list at any space size (docs/pgvector-halfvec-search.md, "Search at
-- scale"): its first candidates are the newest current memories in the profile-like categories.
-- With only (space_id, category) indexed, that meant fetching every such memory of the space and
-- sorting them: 15k rows and 28 ms at 100k memories, on every search_memory with includeProfile
-- (the default) and on the profile resource. With updated_at in the index, each category's newest
-- few are read straight from it (db.memories.profile_stable takes the top per category, then the
-- top of those): ~1 ms at 100k. The new index also serves every lookup the old one did (its
-- leading columns are the same), so it replaces it rather than adding a fourth btree to inserts.
CREATE INDEX memories_space_category_updated_idx
    ON memories (space_id, category, updated_at DESC, id)
    WHERE is_latest AND NOT is_forgotten;
DROP INDEX memories_space_category_idx;
