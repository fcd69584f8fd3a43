-- memories.claimed_at: when a person saved a document's fact word for word (or re-tagged it),
-- making it theirs as well: deleting the document then keeps it, and it still names its source
-- document (services/memories.py, "claim"). A memory a person saved in the first place
-- (source_document_id NULL) is never forgotten by a document's deletion either.
--
-- A nullable column without a default rewrites nothing, but ALTER TABLE takes an ACCESS
-- EXCLUSIVE lock held to the end of this (short) transaction. Search reads memories through
-- memories_in_scope (0009), whose column list was fixed when it was created, so the view is
-- re-created to carry the new column (and write_xid, added by 0015); a query locks the view
-- before the table, so the view is locked first here too (the other order could deadlock with
-- a search). Same scope condition as 0009; OR REPLACE keeps its grant.
LOCK TABLE memories_in_scope IN ACCESS EXCLUSIVE MODE;
ALTER TABLE memories ADD COLUMN claimed_at timestamptz;
CREATE OR REPLACE VIEW memories_in_scope AS
    SELECT * FROM memories
    WHERE space_id = ANY ((SELECT memory_mcp_spaces('memory_mcp.read_spaces'))::uuid[])
       OR (SELECT memory_mcp_all_spaces('memory_mcp.read_spaces'));
