-- Row-level security: the second wall around spaces.
--
-- Every query of the application already filters on space_id. These policies make the database
-- enforce the same boundary, so a query that forgets (or gets wrong) its filter returns nothing
-- outside the spaces the request may read and cannot write outside the ones it may write.
--
-- * The application runs every transaction as memory_mcp_app (SET LOCAL ROLE, in
--   services/runtime.py): not a superuser, no BYPASSRLS, owns nothing, so the policies below
--   apply to it. Locally the server also *logs in* as memory_mcp_server, a member of that role
--   that owns nothing. The owner (the migrating login) keeps seeing everything: migrations and
--   the admin CLI are the explicit "see everything" paths.
-- * The request's spaces are per-transaction settings (set_config(..., true), i.e. SET LOCAL, so
--   nothing outlives the transaction and RDS Proxy does not pin): memory_mcp.read_spaces and
--   memory_mcp.write_spaces, comma-separated space ids, or '*' for an explicit system path (the
--   extraction worker). Unset or empty: no space at all.
-- * Each policy reads the settings once per statement through a scalar subquery (an InitPlan),
--   not once per row.
-- Roles are cluster-wide, so they are created only if missing (several databases may share a
-- cluster: the tests do).

DO $$
BEGIN
    IF NOT EXISTS (SELECT 1 FROM pg_roles WHERE rolname = 'memory_mcp_app') THEN
        CREATE ROLE memory_mcp_app NOLOGIN NOSUPERUSER NOCREATEDB NOCREATEROLE NOBYPASSRLS;
    END IF;
    IF NOT EXISTS (SELECT 1 FROM pg_roles WHERE rolname = 'memory_mcp_server') THEN
        -- No password: it can log in only where the server trusts local connections (the
        -- embedded PostgreSQL's Unix socket). Hosted, the login is the database's own user.
        CREATE ROLE memory_mcp_server LOGIN NOSUPERUSER NOCREATEDB NOCREATEROLE NOBYPASSRLS
            IN ROLE memory_mcp_app;
    END IF;
END
$$;
-- The migrating login (the embedded superuser, the RDS master user, a DATABASE_URL user) may
-- switch to the application role; harmless if it already can.
GRANT memory_mcp_app TO CURRENT_USER;

GRANT USAGE ON SCHEMA public TO memory_mcp_app;
GRANT SELECT, INSERT, UPDATE, DELETE ON ALL TABLES IN SCHEMA public TO memory_mcp_app;
GRANT USAGE, SELECT ON ALL SEQUENCES IN SCHEMA public TO memory_mcp_app;
REVOKE INSERT, UPDATE, DELETE ON schema_migrations FROM memory_mcp_app;
-- Tables of later migrations get the same grants (their policies are written with them;
-- tests/test_row_security.py fails on any table with a space_id and no policy).
ALTER DEFAULT PRIVILEGES IN SCHEMA public
    GRANT SELECT, INSERT, UPDATE, DELETE ON TABLES TO memory_mcp_app;

CREATE FUNCTION memory_mcp_spaces(setting text) RETURNS uuid[] LANGUAGE sql STABLE AS $$
    SELECT CASE WHEN coalesce(current_setting(setting, true), '') IN ('', '*') THEN '{}'::uuid[]
                ELSE string_to_array(current_setting(setting, true), ',')::uuid[] END
$$;
CREATE FUNCTION memory_mcp_all_spaces(setting text) RETURNS boolean LANGUAGE sql STABLE AS $$
    SELECT coalesce(current_setting(setting, true), '') = '*'
$$;

-- Recall statistics are written by searches, i.e. by readers: their writes follow the read scope.
ALTER TABLE memory_recalls ENABLE ROW LEVEL SECURITY;
CREATE POLICY memory_recalls_all ON memory_recalls FOR ALL TO memory_mcp_app
    USING (space_id = ANY ((SELECT memory_mcp_spaces('memory_mcp.read_spaces'))::uuid[])
           OR (SELECT memory_mcp_all_spaces('memory_mcp.read_spaces')))
    WITH CHECK (space_id = ANY ((SELECT memory_mcp_spaces('memory_mcp.read_spaces'))::uuid[])
                OR (SELECT memory_mcp_all_spaces('memory_mcp.read_spaces')));

DO $$
DECLARE
    t text;
BEGIN
    FOREACH t IN ARRAY ARRAY['memories', 'documents', 'space_stats', 'space_terms']
    LOOP
        EXECUTE format('ALTER TABLE %I ENABLE ROW LEVEL SECURITY', t);
        EXECUTE format(
            'CREATE POLICY %I ON %I FOR SELECT TO memory_mcp_app USING ('
            'space_id = ANY ((SELECT memory_mcp_spaces(''memory_mcp.read_spaces''))::uuid[]) '
            'OR (SELECT memory_mcp_all_spaces(''memory_mcp.read_spaces'')))', t || '_read', t);
        EXECUTE format(
            'CREATE POLICY %I ON %I FOR INSERT TO memory_mcp_app WITH CHECK ('
            'space_id = ANY ((SELECT memory_mcp_spaces(''memory_mcp.write_spaces''))::uuid[]) '
            'OR (SELECT memory_mcp_all_spaces(''memory_mcp.write_spaces'')))', t || '_insert', t);
        EXECUTE format(
            'CREATE POLICY %I ON %I FOR UPDATE TO memory_mcp_app USING ('
            'space_id = ANY ((SELECT memory_mcp_spaces(''memory_mcp.write_spaces''))::uuid[]) '
            'OR (SELECT memory_mcp_all_spaces(''memory_mcp.write_spaces''))) WITH CHECK ('
            'space_id = ANY ((SELECT memory_mcp_spaces(''memory_mcp.write_spaces''))::uuid[]) '
            'OR (SELECT memory_mcp_all_spaces(''memory_mcp.write_spaces'')))', t || '_update', t);
        EXECUTE format(
            'CREATE POLICY %I ON %I FOR DELETE TO memory_mcp_app USING ('
            'space_id = ANY ((SELECT memory_mcp_spaces(''memory_mcp.write_spaces''))::uuid[]) '
            'OR (SELECT memory_mcp_all_spaces(''memory_mcp.write_spaces'')))', t || '_delete', t);
    END LOOP;
END
$$;

-- Search reads memories through this view. PostgreSQL evaluates a policy's condition before any
-- condition that uses a non-leakproof operator, and the full-text (@@) and ILIKE operators are
-- not leakproof, so under the policy above their GIN indexes cannot be used: measured at 20k
-- memories per space, a rare-word lookup went from a 3 ms bitmap index scan to an 18 ms scan of
-- the whole space. The view applies the very same read scope as an ordinary condition (it runs
-- with its owner's rights, to whom the policy does not apply), so the planner may combine it
-- with those indexes. The boundary is still enforced by the database, not by the query.
CREATE VIEW memories_in_scope AS
    SELECT * FROM memories
    WHERE space_id = ANY ((SELECT memory_mcp_spaces('memory_mcp.read_spaces'))::uuid[])
       OR (SELECT memory_mcp_all_spaces('memory_mcp.read_spaces'));
GRANT SELECT ON memories_in_scope TO memory_mcp_app;
