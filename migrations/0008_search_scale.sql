-- Search at 100k memories per space (docs/pgvector-halfvec-search.md, "Search at scale").

-- 1. Which width a stored vector really has. The column stays halfvec(3072) for every model;
--    the local model's 384 dimensions are zero-padded, so its rows get their own HNSW index over
--    the first 384 dimensions: 8x cheaper distances in the index, in exact scans and on insert.
--    Every row enters exactly one of the two vector indexes (their predicates), and only current
--    memories enter any: every vector search asks for current memories only.
ALTER TABLE memories ADD COLUMN embedding_width smallint GENERATED ALWAYS AS (
    CASE WHEN l2_norm(subvector(embedding, 385, 2688)) = 0 THEN 384 ELSE 3072 END) STORED;

DROP INDEX memories_embedding_hnsw;
CREATE INDEX memories_embedding_hnsw ON memories USING hnsw (embedding halfvec_cosine_ops)
    WHERE embedding_width = 3072 AND is_latest AND NOT is_forgotten;
CREATE INDEX memories_embedding_384_hnsw ON memories
    USING hnsw ((subvector(embedding, 1, 384)::halfvec(384)) halfvec_cosine_ops)
    WHERE embedding_width = 384 AND is_latest AND NOT is_forgotten;

-- 2. Counts maintained instead of counted per query. search_memory's IDF needs, per space, the
--    number of current memories and how many of them contain each stem of the query;
--    listSpaces and the spaces resource show the first for every granted space. Statement-level
--    triggers keep both. Each trigger updates the space's space_stats row before any
--    space_terms row, so that row is a per-space mutex taken at a transaction's first memory
--    write: two writers of one space queue there instead of deadlocking on stems, and rows of
--    different spaces never collide. A stem whose count falls to 0 keeps its row (df = 0 reads
--    as absent).
CREATE TABLE space_stats (
    space_id       uuid PRIMARY KEY REFERENCES spaces (id) ON DELETE CASCADE,
    live_memories  bigint NOT NULL DEFAULT 0,
    all_memories   bigint NOT NULL DEFAULT 0
);
INSERT INTO space_stats (space_id, live_memories, all_memories)
SELECT s.id, count(m.id) FILTER (WHERE m.is_latest AND NOT m.is_forgotten), count(m.id)
FROM spaces s LEFT JOIN memories m ON m.space_id = s.id GROUP BY s.id;

CREATE TABLE space_terms (
    space_id  uuid NOT NULL REFERENCES spaces (id) ON DELETE CASCADE,
    lexeme    text NOT NULL,
    df        integer NOT NULL,
    PRIMARY KEY (space_id, lexeme)
);
INSERT INTO space_terms (space_id, lexeme, df)
SELECT m.space_id, t.lexeme, count(*) FROM memories m, unnest(m.content_tsv) t
WHERE m.is_latest AND NOT m.is_forgotten GROUP BY m.space_id, t.lexeme;

CREATE FUNCTION space_stats_after_insert() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    INSERT INTO space_stats AS s (space_id, live_memories, all_memories)
    SELECT space_id, count(*) FILTER (WHERE is_latest AND NOT is_forgotten), count(*)
    FROM new_rows GROUP BY space_id ORDER BY space_id
    ON CONFLICT (space_id) DO UPDATE
        SET live_memories = s.live_memories + EXCLUDED.live_memories,
            all_memories = s.all_memories + EXCLUDED.all_memories;
    INSERT INTO space_terms AS st (space_id, lexeme, df)
    SELECT n.space_id, t.lexeme, count(*) FROM new_rows n, unnest(n.content_tsv) t
    WHERE n.is_latest AND NOT n.is_forgotten
    GROUP BY n.space_id, t.lexeme ORDER BY n.space_id, t.lexeme
    ON CONFLICT (space_id, lexeme) DO UPDATE SET df = st.df + EXCLUDED.df;
    RETURN NULL;
END
$$;

CREATE FUNCTION space_stats_after_update() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    -- only rows whose current/forgotten state changed move the counts (re-embedding does not)
    UPDATE space_stats s SET live_memories = s.live_memories + d.delta
    FROM (SELECT space_id, sum(change) AS delta FROM (
              SELECT space_id, CASE WHEN is_latest AND NOT is_forgotten THEN 1 ELSE 0 END AS change
              FROM new_rows
              UNION ALL
              SELECT space_id, CASE WHEN is_latest AND NOT is_forgotten THEN -1 ELSE 0 END
              FROM old_rows) c
          GROUP BY space_id HAVING sum(change) <> 0 ORDER BY space_id) d
    WHERE s.space_id = d.space_id;
    INSERT INTO space_terms AS st (space_id, lexeme, df)
    SELECT space_id, lexeme, sum(change) FROM (
        SELECT n.space_id, t.lexeme, 1 AS change FROM new_rows n, unnest(n.content_tsv) t
        WHERE n.is_latest AND NOT n.is_forgotten
        UNION ALL
        SELECT o.space_id, t.lexeme, -1 FROM old_rows o, unnest(o.content_tsv) t
        WHERE o.is_latest AND NOT o.is_forgotten) c
    GROUP BY space_id, lexeme HAVING sum(change) <> 0 ORDER BY space_id, lexeme
    ON CONFLICT (space_id, lexeme) DO UPDATE SET df = st.df + EXCLUDED.df;
    RETURN NULL;
END
$$;

CREATE FUNCTION space_stats_after_delete() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    -- no upserts: when a space is deleted, its counter rows may already be gone
    UPDATE space_stats s SET live_memories = s.live_memories - d.live,
                             all_memories = s.all_memories - d.total
    FROM (SELECT space_id, count(*) FILTER (WHERE is_latest AND NOT is_forgotten) AS live,
                 count(*) AS total
          FROM old_rows GROUP BY space_id ORDER BY space_id) d
    WHERE s.space_id = d.space_id;
    UPDATE space_terms st SET df = st.df - d.n
    FROM (SELECT o.space_id, t.lexeme, count(*) AS n FROM old_rows o, unnest(o.content_tsv) t
          WHERE o.is_latest AND NOT o.is_forgotten
          GROUP BY o.space_id, t.lexeme ORDER BY o.space_id, t.lexeme) d
    WHERE st.space_id = d.space_id AND st.lexeme = d.lexeme;
    RETURN NULL;
END
$$;

CREATE TRIGGER memories_space_stats_insert AFTER INSERT ON memories
    REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION space_stats_after_insert();
CREATE TRIGGER memories_space_stats_update AFTER UPDATE ON memories
    REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
    FOR EACH STATEMENT EXECUTE FUNCTION space_stats_after_update();
CREATE TRIGGER memories_space_stats_delete AFTER DELETE ON memories
    REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION space_stats_after_delete();
