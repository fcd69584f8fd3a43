-- Full-text side of hybrid search: a stored tsvector (English stemming, stop words dropped) and
-- its GIN index. search_memory fuses this ranking with the vector ranking (reciprocal rank), so
-- names, numbers and rare terms are found even when the embedding alone misses them.
ALTER TABLE memories
    ADD COLUMN content_tsv tsvector GENERATED ALWAYS AS (to_tsvector('english', content)) STORED;
CREATE INDEX memories_content_tsv_idx ON memories USING gin (content_tsv);
