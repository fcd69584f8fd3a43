-- Which documents state which facts, so deleting one document never forgets a fact that another
-- live document (or a person) still holds.
--
-- A document's facts are stored once per space: when a second document states a fact that is
-- already a live memory (word for word), the pipeline skips it, as a single save would. Until
-- now the memory then named only the first document (memories.source_document_id), and
-- deleting that document forgot the fact although the second one still states it: a user who
-- uploads a revised file and deletes the old one lost every fact the two had in common.
--
-- A row here says "this document states the fact in this memory row" (memory_id: the very
-- version whose text the document contains; root_id: its version chain, i.e. the fact). The
-- pipeline writes one for every fact of a document, new, already there, or an older wording a
-- person has since corrected, in the same transaction as the memories. Deleting a document
-- forgets only the chains no other live document states; the memories of a chain another one
-- states are re-attributed to it (the oldest such document), so they stay searchable and a
-- later delete of that document still forgets them. getDocument lists, and listDocuments
-- counts, the rows a document states that are still current, so a document whose facts were
-- all known still shows them, and a person's correction is never shown as the document's text.
--
-- Rows of a deleted document stay (the document row itself is only soft-deleted): only live
-- documents count as holders.
--
-- Two migrations (and 0017 for memories.claimed_at), each its own transaction, so none holds a lock on a busy table for
-- long or takes two of them in an order the application does not (which could deadlock with a
-- save or an extraction job mid-deploy): this one creates the (empty) table and the trigger,
-- whose only lock on an existing table is memories' SHARE ROW EXCLUSIVE, held for the few
-- milliseconds until it commits; from then on every document memory inserted is recorded,
-- whichever code inserts it (an extraction job of the previous release, an import). 0019 then
-- backfills the rows written before, taking no lock that blocks a writer.
--
-- No foreign keys: adding them would lock memories, documents and spaces against writes for
-- the migration, in an order that can deadlock with the application's writers. The rows live
-- as long as what they name: memories and documents are never deleted but with their space,
-- and deleting a space deletes its statements (db/identity.delete_space).
CREATE TABLE document_statements (
    document_id uuid NOT NULL,
    memory_id   uuid NOT NULL,
    root_id     uuid NOT NULL,
    space_id    uuid NOT NULL,
    PRIMARY KEY (document_id, memory_id)
);
CREATE INDEX document_statements_root_idx ON document_statements (root_id);
CREATE INDEX document_statements_memory_idx ON document_statements (memory_id);
CREATE INDEX document_statements_space_idx ON document_statements (space_id);

CREATE FUNCTION document_statements_after_insert() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    INSERT INTO document_statements (document_id, memory_id, root_id, space_id)
    VALUES (NEW.source_document_id, NEW.id, NEW.root_id, NEW.space_id)
    ON CONFLICT DO NOTHING;
    RETURN NULL;
END
$$;
-- Per row with a WHEN condition: a save (no source document) never even calls the function.
CREATE TRIGGER memories_document_statements AFTER INSERT ON memories
    FOR EACH ROW WHEN (NEW.source_document_id IS NOT NULL)
    EXECUTE FUNCTION document_statements_after_insert();

-- The same wall as every table with a space_id (0009): reads follow the read scope, writes the
-- write scope; the extraction worker's '*' covers every space.
ALTER TABLE document_statements ENABLE ROW LEVEL SECURITY;
CREATE POLICY document_statements_read ON document_statements FOR SELECT TO memory_mcp_app
    USING (space_id = ANY ((SELECT memory_mcp_spaces('memory_mcp.read_spaces'))::uuid[])
           OR (SELECT memory_mcp_all_spaces('memory_mcp.read_spaces')));
CREATE POLICY document_statements_insert ON document_statements FOR INSERT TO memory_mcp_app
    WITH CHECK (space_id = ANY ((SELECT memory_mcp_spaces('memory_mcp.write_spaces'))::uuid[])
                OR (SELECT memory_mcp_all_spaces('memory_mcp.write_spaces')));
CREATE POLICY document_statements_update ON document_statements FOR UPDATE TO memory_mcp_app
    USING (space_id = ANY ((SELECT memory_mcp_spaces('memory_mcp.write_spaces'))::uuid[])
           OR (SELECT memory_mcp_all_spaces('memory_mcp.write_spaces')))
    WITH CHECK (space_id = ANY ((SELECT memory_mcp_spaces('memory_mcp.write_spaces'))::uuid[])
                OR (SELECT memory_mcp_all_spaces('memory_mcp.write_spaces')));
CREATE POLICY document_statements_delete ON document_statements FOR DELETE TO memory_mcp_app
    USING (space_id = ANY ((SELECT memory_mcp_spaces('memory_mcp.write_spaces'))::uuid[])
           OR (SELECT memory_mcp_all_spaces('memory_mcp.write_spaces')));
