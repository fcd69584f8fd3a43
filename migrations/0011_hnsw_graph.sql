-- Denser HNSW graphs, so the approximate index finds a space's true nearest neighbours at 100k
-- memories per space (docs/pgvector-halfvec-search.md, "Approximate-index recall").
--
-- With pgvector's defaults (m = 16, ef_construction = 64) recall@10 against an exact scan fell
-- to 0.56-0.62 for queries far from a space's topics at 100k per space: the true neighbours are
-- spread thinly over many clusters and the sparse graph stops before reaching them, whatever
-- ef_search. Measured on the bench's data (same run, 2 x 100k, one shared graph): m = 32 and
-- ef_construction = 200 lift it to 0.953 at ef_search 1000 (0.895 at 400), on-topic 1.000.
-- The price is paid on writes (about twice the HNSW insert cost, bench/search_latency.py
-- prints it) and once here: both indexes are rebuilt. On a large table that takes minutes
-- (about 8 for 200k rows on 2 busy cores); give the session enough maintenance_work_mem (the
-- graph of 100k 384-d rows needs ~150 MB) or it builds on disk, far slower.
DROP INDEX memories_embedding_384_hnsw;
CREATE INDEX memories_embedding_384_hnsw ON memories
    USING hnsw ((subvector(embedding, 1, 384)::halfvec(384)) halfvec_cosine_ops)
    WITH (m = 32, ef_construction = 200)
    WHERE embedding_width = 384 AND is_latest AND NOT is_forgotten;

DROP INDEX memories_embedding_hnsw;
CREATE INDEX memories_embedding_hnsw ON memories USING hnsw (embedding halfvec_cosine_ops)
    WITH (m = 32, ef_construction = 200)
    WHERE embedding_width = 3072 AND is_latest AND NOT is_forgotten;
