-- Upload and extraction bookkeeping on documents.
--   attempts / lease_until: a processing lease, so a redelivered or concurrent job never runs the
--   same document twice at once, and a crashed worker's lease simply expires and is retried.
--   deleted_at: deleteDocument keeps the row (its memories still name their source) but hides it.
ALTER TABLE documents
    ADD COLUMN attempts      integer NOT NULL DEFAULT 0,
    ADD COLUMN lease_until   timestamptz,
    ADD COLUMN uploaded_at   timestamptz,
    ADD COLUMN processed_at  timestamptz,
    ADD COLUMN deleted_at    timestamptz,
    ADD COLUMN pages         integer,
    ADD COLUMN truncated     boolean NOT NULL DEFAULT false;

CREATE UNIQUE INDEX documents_storage_key ON documents (storage_key) WHERE storage_key IS NOT NULL;
CREATE INDEX memories_source_document_idx ON memories (source_document_id)
    WHERE source_document_id IS NOT NULL;
