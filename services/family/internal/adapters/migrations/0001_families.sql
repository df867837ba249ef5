-- Families, their members and invitations, and Secret Santa draws. The family service owns
-- these tables; other services learn about families from its events only.
CREATE TABLE families (
    id         uuid PRIMARY KEY,
    name       text NOT NULL CHECK (char_length(name) BETWEEN 1 AND 60),
    created_by text NOT NULL,
    created_at timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE family_members (
    family_id    uuid NOT NULL REFERENCES families ON DELETE CASCADE,
    uid          text NOT NULL,
    display_name text NOT NULL,
    role         text NOT NULL CHECK (role IN ('admin', 'member')),
    joined_at    timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (family_id, uid)
);
CREATE INDEX family_members_by_uid ON family_members (uid);

-- Only a hash of each token is kept: a copy of the database holds no working links.
CREATE TABLE family_invites (
    token_hash      bytea PRIMARY KEY,
    family_id       uuid NOT NULL REFERENCES families ON DELETE CASCADE,
    invited_by      text NOT NULL,
    invited_by_name text NOT NULL,
    email           text,
    created_at      timestamptz NOT NULL DEFAULT now(),
    expires_at      timestamptz NOT NULL
);
CREATE INDEX family_invites_by_family ON family_invites (family_id);

-- One current draw per family; a new draw replaces it.
CREATE TABLE secret_santa_draws (
    family_id    uuid PRIMARY KEY REFERENCES families ON DELETE CASCADE,
    drawn_by     text NOT NULL,
    drawn_at     timestamptz NOT NULL,
    budget       text NOT NULL DEFAULT ''
);

-- The pairs are read one row at a time, by the giver; nothing answers a whole draw.
CREATE TABLE secret_santa_pairs (
    family_id uuid NOT NULL REFERENCES secret_santa_draws ON DELETE CASCADE,
    giver     text NOT NULL,
    receiver  text NOT NULL,
    PRIMARY KEY (family_id, giver),
    UNIQUE (family_id, receiver),
    CHECK (giver <> receiver)
);

CREATE TABLE outbox (
    id           uuid PRIMARY KEY,
    subject      text NOT NULL,
    payload      jsonb NOT NULL,
    created_at   timestamptz NOT NULL DEFAULT now(),
    published_at timestamptz
);
CREATE INDEX outbox_pending ON outbox (created_at) WHERE published_at IS NULL;
