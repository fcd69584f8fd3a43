-- Source documents and the memories (facts) stored in a space.

CREATE TABLE documents (
    id                  uuid PRIMARY KEY DEFAULT gen_random_uuid(),
    space_id            uuid NOT NULL REFERENCES spaces (id) ON DELETE CASCADE,
    title               text NOT NULL DEFAULT '',
    filename            text,
    content_type        text,
    size_bytes          bigint,
    status              text NOT NULL DEFAULT 'queued'
                        CHECK (status IN ('queued', 'extracting', 'embedding', 'done', 'failed')),
    status_reason       text,
    summary             text,
    content             text,
    storage_key         text,
    created_by          uuid NOT NULL REFERENCES users (id),
    updated_by          uuid NOT NULL REFERENCES users (id),
    created_at          timestamptz NOT NULL DEFAULT now(),
    updated_at          timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX documents_space_created_idx ON documents (space_id, created_at DESC, id);

CREATE TABLE memories (
    id                  uuid PRIMARY KEY DEFAULT gen_random_uuid(),
    space_id            uuid NOT NULL REFERENCES spaces (id) ON DELETE CASCADE,
    content             text NOT NULL,
    content_hash        bytea NOT NULL,
    category            text,
    version             integer NOT NULL DEFAULT 1 CHECK (version >= 1),
    parent_id           uuid REFERENCES memories (id),
    root_id             uuid NOT NULL,
    is_latest           boolean NOT NULL DEFAULT true,
    is_forgotten        boolean NOT NULL DEFAULT false,
    forgotten_at        timestamptz,
    forgotten_by        uuid REFERENCES users (id),
    forget_reason       text,
    source_document_id  uuid REFERENCES documents (id) ON DELETE SET NULL,
    created_by          uuid NOT NULL REFERENCES users (id),
    updated_by          uuid NOT NULL REFERENCES users (id),
    created_at          timestamptz NOT NULL DEFAULT now(),
    updated_at          timestamptz NOT NULL DEFAULT now(),
    embedding           halfvec(3072) NOT NULL,
    CHECK (is_forgotten = (forgotten_at IS NOT NULL))
);

-- Semantic recall: cosine HNSW over the half-precision column (vector HNSW caps at 2000 dims).
CREATE INDEX memories_embedding_hnsw ON memories USING hnsw (embedding halfvec_cosine_ops);
-- Every read is scoped to one space; the planner pairs this with the HNSW iterative scan.
CREATE INDEX memories_space_idx ON memories (space_id);
CREATE INDEX memories_space_created_idx ON memories (space_id, created_at DESC, id);
-- Fast case-insensitive substring search (ILIKE '%kw%') via trigrams, where pg_trgm exists
-- (see 0001). Without it the keyword filter runs over the rows of one space.
DO $$
BEGIN
    IF EXISTS (SELECT 1 FROM pg_extension WHERE extname = 'pg_trgm') THEN
        CREATE INDEX memories_content_trgm ON memories USING gin (content gin_trgm_ops);
    END IF;
END
$$;
CREATE INDEX memories_space_category_idx ON memories (space_id, category)
    WHERE is_latest AND NOT is_forgotten;
-- Idempotent save: one live memory per exact content per space.
CREATE UNIQUE INDEX memories_live_content_key ON memories (space_id, content_hash)
    WHERE is_latest AND NOT is_forgotten;
-- A version chain has exactly one latest row.
CREATE UNIQUE INDEX memories_one_latest_per_root ON memories (root_id) WHERE is_latest;

-- Recall statistics live apart from memories so that counting a search hit never rewrites the
-- wide row that carries the embedding.
CREATE TABLE memory_recalls (
    memory_id         uuid PRIMARY KEY REFERENCES memories (id) ON DELETE CASCADE,
    recall_count      integer NOT NULL DEFAULT 0,
    last_recalled_at  timestamptz NOT NULL DEFAULT now()
);

-- The embedding model every stored vector was made with. One row; pinned at first start.
CREATE TABLE embedding_model (
    singleton   boolean PRIMARY KEY DEFAULT true CHECK (singleton),
    model_id    text NOT NULL,
    dimensions  integer NOT NULL,
    pinned_at   timestamptz NOT NULL DEFAULT now()
);
