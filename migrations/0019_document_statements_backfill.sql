-- The statements of the document memories written before 0018's trigger existed (the trigger
-- records every one written since; ON CONFLICT skips any both saw). Reads memories and writes
-- only the new table: no lock here blocks a save, a search or an extraction job.
INSERT INTO document_statements (document_id, memory_id, root_id, space_id)
SELECT source_document_id, id, root_id, space_id FROM memories
WHERE source_document_id IS NOT NULL
ON CONFLICT DO NOTHING;
