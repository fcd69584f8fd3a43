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
-- memories.claimed_at: when a person saved a document's fact word for word (or re-tagged it),
-- making it theirs as well: deleting the document then keeps it, and it still names its
-- source document. A memory a person saved in the first place (source_document_id NULL) is
-- never forgotten by a document's deletion either. A nullable column without a default:
-- adding it rewrites nothing.
--
-- Rows of a deleted document stay (the document row itself is only soft-deleted): only live
-- documents count as holders.
--
-- Order, for a large table under traffic (this file runs in one transaction, and every lock it
-- takes is held to its end): the trigger first, so every document memory inserted from then on
-- is recorded whichever code inserts it (an extraction job of the previous release during the
-- deploy, an import); creating it locks memories against writes, so the backfill that follows
-- misses nothing. The backfill has no foreign keys to check yet (they cost three lookups and a
-- row lock per row: 3.5 s per 100k rows, measured); they are added afterwards NOT VALID, which
-- checks every new row but not the backfilled ones, which reference existing rows by
-- construction. The new column and the view come last: a metadata change each.
CREATE TABLE document_statements (
    document_id uuid NOT NULL,
    memory_id   uuid NOT NULL,
    root_id     uuid NOT NULL,
    space_id    uuid NOT NULL,
    PRIMARY KEY (document_id, memory_id)
);

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

INSERT INTO document_statements (document_id, memory_id, root_id, space_id)
SELECT source_document_id, id, root_id, space_id FROM memories
WHERE source_document_id IS NOT NULL
ON CONFLICT DO NOTHING;

ALTER TABLE document_statements
    ADD CONSTRAINT document_statements_document_fk FOREIGN KEY (document_id)
        REFERENCES documents (id) ON DELETE CASCADE NOT VALID,
    ADD CONSTRAINT document_statements_memory_fk FOREIGN KEY (memory_id)
        REFERENCES memories (id) ON DELETE CASCADE NOT VALID,
    ADD CONSTRAINT document_statements_space_fk FOREIGN KEY (space_id)
        REFERENCES spaces (id) ON DELETE CASCADE NOT VALID;
CREATE INDEX document_statements_root_idx ON document_statements (root_id);
-- The cascades from memories and spaces look rows up by these (a space's deletion, 0 rows
-- scanned elsewhere).
CREATE INDEX document_statements_memory_idx ON document_statements (memory_id);
CREATE INDEX document_statements_space_idx ON document_statements (space_id);

ALTER TABLE memories ADD COLUMN claimed_at timestamptz;
-- Search reads memories through this view (0009), whose column list was fixed when it was
-- created: re-create it so it carries the new column (and write_xid, added by 0015). Same
-- scope condition as 0009; OR REPLACE keeps its grant.
CREATE OR REPLACE VIEW memories_in_scope AS
    SELECT * FROM memories
    WHERE space_id = ANY ((SELECT memory_mcp_spaces('memory_mcp.read_spaces'))::uuid[])
       OR (SELECT memory_mcp_all_spaces('memory_mcp.read_spaces'));

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
