-- People, their credentials, the spaces that hold knowledge, and what each credential may do where.

CREATE TABLE users (
    id            uuid PRIMARY KEY DEFAULT gen_random_uuid(),
    email         text NOT NULL,
    display_name  text NOT NULL,
    role          text NOT NULL CHECK (role IN ('writer', 'reader')),
    active        boolean NOT NULL DEFAULT true,
    created_at    timestamptz NOT NULL DEFAULT now(),
    updated_at    timestamptz NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX users_email_key ON users (lower(email));

CREATE TABLE spaces (
    id                uuid PRIMARY KEY DEFAULT gen_random_uuid(),
    key               text NOT NULL UNIQUE CHECK (key ~ '^[a-z0-9][a-z0-9._-]{0,62}$'),
    name              text NOT NULL,
    description       text NOT NULL DEFAULT '',
    created_at        timestamptz NOT NULL DEFAULT now(),
    last_activity_at  timestamptz
);

CREATE TABLE api_keys (
    id               uuid PRIMARY KEY DEFAULT gen_random_uuid(),
    user_id          uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    label            text NOT NULL,
    prefix           text NOT NULL UNIQUE,
    key_hash         bytea NOT NULL,
    created_at       timestamptz NOT NULL DEFAULT now(),
    last_used_at     timestamptz,
    revoked_at       timestamptz,
    active_space_id  uuid REFERENCES spaces (id) ON DELETE SET NULL
);
CREATE INDEX api_keys_user_idx ON api_keys (user_id);

CREATE TABLE grants (
    key_id      uuid NOT NULL REFERENCES api_keys (id) ON DELETE CASCADE,
    space_id    uuid NOT NULL REFERENCES spaces (id) ON DELETE CASCADE,
    access      text NOT NULL CHECK (access IN ('read', 'readwrite')),
    created_at  timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (key_id, space_id)
);
CREATE INDEX grants_space_idx ON grants (space_id);
