-- The key check as a PL/pgSQL function, so its plan is made once per connection; and, below, the
-- grant check a search repeats in its first statement, for the same reason.
--
-- Every request starts with one statement (db.identity.principal_by_key, in autocommit): find
-- the live key and its active user by prefix and hash, mark the key used (at most once a
-- minute), count the request in its rate window, and return the key's grants with it, so a
-- request resolves its space without a statement of its own. As a plain statement PostgreSQL
-- planned that CTE every time, because the server uses no prepared statements (they would pin
-- RDS Proxy connections, and a vector search needs a plan made for its space's id): planning
-- took as long as running it, 0.74 of ~1.4 ms at 2.5k memories per space. A PL/pgSQL function
-- keeps the plans of its statements for the life of the connection, which pins nothing: the
-- same work costs ~0.7 ms instead of ~1.3 (bench/search_latency.py, docs/security.md).
--
-- It runs with the caller's rights (SECURITY INVOKER), reads only api_keys, users, grants and
-- spaces and writes only api_keys.last_used_at and rate_windows: tables without space rows and
-- without row-level security, which is why the key check needs no scope. The rate window's
-- rule is db/limits.py's COUNT_ONE (the calendar minute; used + 1 within it, else 1).
CREATE FUNCTION memory_mcp_key_check(presented_prefix text, presented_hash bytea,
                                     request_limit integer)
RETURNS TABLE (
    key_id uuid, key_label text, key_prefix text, key_hash bytea, active_space_id uuid,
    requests_per_minute integer, writes_per_minute integer, user_id uuid, email text,
    display_name text, role text, used integer, seconds_left integer,
    grant_space_ids uuid[], grant_keys text[], grant_names text[], grant_descriptions text[],
    grant_access text[], grant_created_at timestamptz[]
) LANGUAGE plpgsql VOLATILE AS $$
#variable_conflict use_column
BEGIN
    RETURN QUERY
    WITH k AS (
        SELECT a.id AS key_id, a.label AS key_label, a.prefix AS key_prefix, a.key_hash,
               a.active_space_id, a.requests_per_minute, a.writes_per_minute, a.last_used_at,
               u.id AS user_id, u.email, u.display_name, u.role
        FROM api_keys a JOIN users u ON u.id = a.user_id
        WHERE a.prefix = presented_prefix AND a.key_hash = presented_hash
          AND a.revoked_at IS NULL AND u.active),
    touched AS (
        UPDATE api_keys a SET last_used_at = now() FROM k
        WHERE a.id = k.key_id
          AND (k.last_used_at IS NULL OR k.last_used_at < now() - interval '60 seconds')),
    counted AS (
        INSERT INTO rate_windows AS r (key_id, budget, window_start, used)
        SELECT k.key_id, 'requests', date_trunc('minute', now()), 1 FROM k
        WHERE request_limit IS NOT NULL
          AND coalesce(k.requests_per_minute, request_limit) > 0
        ON CONFLICT (key_id, budget) DO UPDATE
            SET used = CASE WHEN r.window_start = EXCLUDED.window_start THEN r.used + 1 ELSE 1 END,
                window_start = EXCLUDED.window_start
        RETURNING r.used,
                  ceil(extract(epoch FROM r.window_start + interval '1 minute' - now()))::int
                      AS seconds_left)
    SELECT k.key_id, k.key_label, k.key_prefix, k.key_hash, k.active_space_id,
           k.requests_per_minute, k.writes_per_minute, k.user_id, k.email, k.display_name,
           k.role, (SELECT c.used FROM counted c), (SELECT c.seconds_left FROM counted c),
           gr.space_ids, gr.keys, gr.names, gr.descriptions, gr.access, gr.created_at
    FROM k LEFT JOIN LATERAL (
        -- Oldest grant first: the first is the key's default space (services/access.py).
        SELECT array_agg(s.id ORDER BY g.created_at, s.key) AS space_ids,
               array_agg(s.key ORDER BY g.created_at, s.key) AS keys,
               array_agg(s.name ORDER BY g.created_at, s.key) AS names,
               array_agg(s.description ORDER BY g.created_at, s.key) AS descriptions,
               array_agg(g.access ORDER BY g.created_at, s.key) AS access,
               array_agg(g.created_at ORDER BY g.created_at, s.key) AS created_at
        FROM grants g JOIN spaces s ON s.id = g.space_id
        WHERE g.key_id = k.key_id) gr ON true;
END
$$;

-- The grant check a search makes in its transaction's first statement (db/scope.py, ``holder``):
-- of ``spaces``, those ``holder`` still holds a grant on, with the key not revoked and its user
-- active, as the scope setting writes them (sorted ids, comma-separated; '' for none). Time
-- passes between the key check and the search (the body is read, a query embedded), so the
-- grant is checked again there. A function for the same reason as the key check: its plan is
-- kept per connection (0.3 ms of planning a three-table join, on every search, otherwise).
CREATE FUNCTION memory_mcp_still_granted(holder uuid, spaces uuid[]) RETURNS text
LANGUAGE plpgsql STABLE AS $$
BEGIN
    RETURN coalesce((
        SELECT string_agg(g.space_id::text, ',' ORDER BY g.space_id::text)
        FROM grants g JOIN api_keys a ON a.id = g.key_id JOIN users u ON u.id = a.user_id
        WHERE g.key_id = holder AND g.space_id = ANY(spaces) AND a.revoked_at IS NULL
          AND u.active), '');
END
$$;
