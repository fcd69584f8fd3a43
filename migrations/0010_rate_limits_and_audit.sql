-- Per-key rate limits and the audit trail.
--
-- Rate limits: a fixed one-minute window per key and budget ('requests': every authenticated
-- request; 'writes': saves, forgets, deletes and uploads), counted in the database so that every
-- process and Lambda instance shares it. One upsert per request, on a row per key. A key's own
-- limit overrides the deployment's (NULL: the setting; 0: unlimited).
ALTER TABLE api_keys
    ADD COLUMN requests_per_minute integer CHECK (requests_per_minute >= 0),
    ADD COLUMN writes_per_minute   integer CHECK (writes_per_minute >= 0);

CREATE TABLE rate_windows (
    key_id        uuid NOT NULL REFERENCES api_keys (id) ON DELETE CASCADE,
    budget        text NOT NULL CHECK (budget IN ('requests', 'writes')),
    window_start  timestamptz NOT NULL,
    used          integer NOT NULL,
    PRIMARY KEY (key_id, budget)
);
GRANT SELECT, INSERT, UPDATE, DELETE ON rate_windows TO memory_mcp_app;

-- Audit trail: append-only for the application (it may insert, never read, change or delete),
-- read and purged by the admin CLI as the owner. No foreign keys: an event outlives the user,
-- key or space it names. Never secrets, never content: ids, kinds and short reasons only.
CREATE TABLE audit_events (
    id             bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    at             timestamptz NOT NULL DEFAULT now(),
    kind           text NOT NULL,
    actor_user_id  uuid,
    actor_key_id   uuid,
    space_id       uuid,
    target_id      uuid,
    detail         jsonb NOT NULL DEFAULT '{}'::jsonb
);
CREATE INDEX audit_events_at_idx ON audit_events (at DESC);
CREATE INDEX audit_events_space_idx ON audit_events (space_id, at DESC) WHERE space_id IS NOT NULL;
CREATE INDEX audit_events_user_idx ON audit_events (actor_user_id, at DESC)
    WHERE actor_user_id IS NOT NULL;
REVOKE ALL ON audit_events FROM memory_mcp_app;
GRANT INSERT ON audit_events TO memory_mcp_app;
ALTER TABLE audit_events ENABLE ROW LEVEL SECURITY;
CREATE POLICY audit_events_append ON audit_events FOR INSERT TO memory_mcp_app WITH CHECK (true);
