-- The key that uploaded a document, so its extraction job can check, when it commits the
-- document's memories, that the key may still write the space (as a save's writing
-- transaction does, migration 0016). A key revoked, a user deactivated or made a Reader, or a
-- grant lowered or removed between the upload and the job's commit then writes nothing: the
-- document ends failed, saying why. Rows created before this migration (and imported
-- documents, which no job processes) keep NULL and are committed as before.
--
-- No foreign key: keys are never deleted (revoking sets revoked_at), and a foreign key would
-- lock api_keys while documents are written.
ALTER TABLE documents ADD COLUMN IF NOT EXISTS created_by_key uuid;
