-- Which documents state which facts, so deleting one document never forgets a fact that another
-- live document (or a person) still holds.
--
-- A document's facts are stored once per space: when a second document states a fact that is
-- already a live memory (word for word), the pipeline skips it, as a single save would. Until
-- now the memory then named only the first document (memories.source_document_id), and
-- deleting that document forgot the fact although the second one still states it: a user who
-- uploads a revised file and deletes the old one lost every fact the two had in common.
--
-- A row here says "this document states the fact whose version chain is root_id". The
-- pipeline writes one for every fact of a document, new or already there, in the same
-- transaction as the memories. Deleting a document forgets only the chains no other live
-- document states; the memories of a chain another one states are re-attributed to it (the
-- oldest such document), so they stay searchable and a later delete of that document still
-- forgets them. A memory a person saved (source_document_id NULL) is never forgotten by a
-- document's deletion. getDocument lists, and listDocuments counts, a document's facts
-- through this table, so a document whose facts were all known still shows them.
--
-- Rows of a deleted document stay (the document row itself is only soft-deleted): only live
-- documents count as holders. Existing memories get their row from source_document_id.
CREATE TABLE document_statements (
    document_id uuid NOT NULL REFERENCES documents (id) ON DELETE CASCADE,
    root_id     uuid NOT NULL REFERENCES memories (id) ON DELETE CASCADE,
    space_id    uuid NOT NULL REFERENCES spaces (id) ON DELETE CASCADE,
    PRIMARY KEY (document_id, root_id)
);
CREATE INDEX document_statements_root_idx ON document_statements (root_id);

INSERT INTO document_statements (document_id, root_id, space_id)
SELECT DISTINCT source_document_id, root_id, space_id FROM memories
WHERE source_document_id IS NOT NULL
ON CONFLICT DO NOTHING;

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
