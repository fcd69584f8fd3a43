-- How much of each processed document is searchable, so a document cut by a bound says so
-- (listDocuments / getDocument) instead of silently missing the rest of its text.
--   source_chars:     characters of text in the file; NULL when reading stopped at the character
--                     limit before the end (PDF, Word, CSV), so the full length is unknown
--   extracted_chars:  characters the character limit let through: what the memories are made of
--   indexed_chars:    of those, how many the stored memories cover (less when a bound cut it)
--   memories_created: memories the document added (word-for-word repeats of live ones are not)
--   pages_read:       PDF pages read when the character limit stopped reading early
--   cut_by:           the bound that cut the document; NULL when all of it was indexed
--   coverage_note:    the same in plain words, with the setting and what to do about it
-- All stay NULL for documents processed before this migration (coverage unknown).
ALTER TABLE documents
    ADD COLUMN source_chars     bigint,
    ADD COLUMN extracted_chars  integer,
    ADD COLUMN indexed_chars    integer,
    ADD COLUMN memories_created integer,
    ADD COLUMN pages_read       integer,
    ADD COLUMN cut_by           text CHECK (cut_by IN ('max_extracted_chars',
                                                       'max_memories_per_document',
                                                       'job_time_budget')),
    ADD COLUMN coverage_note    text;
