-- Extensions the schema depends on. pgvector >= 0.8.0 is checked by the migrator afterwards
-- (halfvec HNSW and iterative index scans need it). gen_random_uuid() is core since PostgreSQL 13.
CREATE EXTENSION IF NOT EXISTS vector;

-- pg_trgm makes ILIKE '%keyword%' use an index. RDS and the pgvector docker image ship it; the
-- embedded server does not, and there keyword search scans the (btree-selected) space instead.
-- Same queries, same results either way; only the plan differs.
DO $$
BEGIN
    IF EXISTS (SELECT 1 FROM pg_available_extensions WHERE name = 'pg_trgm') THEN
        CREATE EXTENSION IF NOT EXISTS pg_trgm;
    END IF;
END
$$;
