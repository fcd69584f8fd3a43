-- One HNSW graph per bucket of spaces instead of one graph for the whole table
-- (docs/pgvector-halfvec-search.md, "A graph per bucket of spaces").
--
-- Every vector search reads one space. In one shared graph the space filter discards the rows of
-- every other space, and a query near topics only *other* spaces hold walks through their rows
-- first: at 2 x 100k memories recall@10 against an exact scan was 0.93-0.95 at ef_search 1000
-- for such queries, and it falls as the table grows around a space. So each width's index is
-- split into 16 partial indexes by a hash of the space id: a search (``VectorForm.predicate``
-- adds the same bucket condition, with the space's bucket folded to a constant by the planner)
-- walks a graph holding only its bucket's spaces - ideally its own - and every insert goes into
-- exactly one of them (a smaller graph: a little cheaper than one over the whole table).
--
-- The bucket count is part of the schema: ``db.search.SPACE_BUCKETS`` must equal the modulus
-- here. Building takes about as long as 0011's single index did (the same rows, in 16 smaller
-- graphs); give the session enough maintenance_work_mem, as there.
DO $$
DECLARE
    b integer;
BEGIN
    FOR b IN 0..15 LOOP
        EXECUTE format(
            'CREATE INDEX memories_embedding_384_hnsw_b%s ON memories USING hnsw '
            '((subvector(embedding, 1, 384)::halfvec(384)) halfvec_cosine_ops) '
            'WITH (m = 32, ef_construction = 200) '
            'WHERE embedding_width = 384 AND is_latest AND NOT is_forgotten '
            'AND (uuid_hash(space_id) & 15) = %s', lpad(b::text, 2, '0'), b);
        EXECUTE format(
            'CREATE INDEX memories_embedding_hnsw_b%s ON memories USING hnsw '
            '(embedding halfvec_cosine_ops) '
            'WITH (m = 32, ef_construction = 200) '
            'WHERE embedding_width = 3072 AND is_latest AND NOT is_forgotten '
            'AND (uuid_hash(space_id) & 15) = %s', lpad(b::text, 2, '0'), b);
    END LOOP;
END
$$;

DROP INDEX memories_embedding_384_hnsw;
DROP INDEX memories_embedding_hnsw;
