-- The write counterpart of memory_mcp_still_granted (0014), so a save opens its writing
-- transaction on its space in one statement that also checks the key may still write there.
--
-- A save resolves its space from the grants its request's key check read, embeds the text
-- (which takes a while), and then writes. Until now its writing transaction read the key's
-- grants again with two statements of its own (the grants, then the scope) before it could
-- take the space's save lock: two round trips on every save, on a path whose CPU bounds the
-- write rate of a small machine (docs/pgvector-halfvec-search.md, "Write throughput"). Now the
-- transaction's first statement (db/scope.enter) sets the write scope to what this function
-- returns: the given spaces where the key is not revoked, its user is active and a Writer, and
-- its grant is ReadWrite - the effective access of services/access (the role is a ceiling).
-- A space missing from the answer is not writable in that transaction at all (the row-level
-- policies read the same setting), and the save reports why in a transaction of its own.
CREATE FUNCTION memory_mcp_still_writable(holder uuid, spaces uuid[]) RETURNS text
LANGUAGE plpgsql STABLE AS $$
BEGIN
    RETURN coalesce((
        SELECT string_agg(g.space_id::text, ',' ORDER BY g.space_id::text)
        FROM grants g JOIN api_keys a ON a.id = g.key_id JOIN users u ON u.id = a.user_id
        WHERE g.key_id = holder AND g.space_id = ANY(spaces) AND a.revoked_at IS NULL
          AND u.active AND u.role = 'writer' AND g.access = 'readwrite'), '');
END
$$;
