-- Notification preferences: one row per choice a user made, per kind and channel
-- ('push', 'email'); a kind and channel without a row has the default of domain.Kinds.
CREATE TABLE notification_preferences (
    user_id    text NOT NULL,
    kind       text NOT NULL,
    channel    text NOT NULL,
    enabled    boolean NOT NULL,
    updated_at timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (user_id, kind, channel)
);
-- The language a user's emails are written in (the app's language, sent by the web app).
CREATE TABLE notification_settings (
    user_id    text PRIMARY KEY,
    language   text NOT NULL,
    updated_at timestamptz NOT NULL DEFAULT now()
);
-- One-click unsubscribe (RFC 8058): a random token stands for a user and the kinds of one email
-- (email off for those kinds), or for an invited address (no more invitations to it: only the
-- SHA-256 of the lower-cased address is kept).
CREATE TABLE unsubscribe_tokens (
    token        text PRIMARY KEY,
    user_id      text,
    kinds        text[],
    address_hash bytea,
    created_at   timestamptz NOT NULL DEFAULT now(),
    CHECK ((user_id IS NOT NULL AND kinds IS NOT NULL AND address_hash IS NULL)
        OR (user_id IS NULL AND kinds IS NULL AND address_hash IS NOT NULL))
);
CREATE UNIQUE INDEX unsubscribe_tokens_user_kinds ON unsubscribe_tokens (user_id, kinds) WHERE user_id IS NOT NULL;
CREATE UNIQUE INDEX unsubscribe_tokens_address ON unsubscribe_tokens (address_hash) WHERE address_hash IS NOT NULL;
-- Addresses that asked for no more invitations.
CREATE TABLE email_suppressions (
    address_hash bytea PRIMARY KEY,
    created_at   timestamptz NOT NULL DEFAULT now()
);
-- Notices waiting to be emailed. notice_id (the notice's event id) makes a redelivered event add
-- nothing twice; a row stays, marked done, once its email went out (or was not wanted).
CREATE TABLE email_items (
    notice_id   uuid PRIMARY KEY,
    user_id     text NOT NULL,
    batch       text NOT NULL,
    kind        text NOT NULL,
    event       text NOT NULL,
    data        json NOT NULL,
    occurred_at timestamptz NOT NULL,
    created_at  timestamptz NOT NULL,
    done_at     timestamptz,
    outcome     text
);
CREATE INDEX email_items_pending ON email_items (user_id, batch) WHERE done_at IS NULL;
CREATE INDEX email_items_done ON email_items (done_at) WHERE done_at IS NOT NULL;
-- One row per email to send: a user's digest ('digest', due at the end of its window) or one
-- notice sent at once (batch = its notice id). The sender claims a due row with FOR UPDATE SKIP
-- LOCKED and holds it while it sends, so two replicas never send the same email.
CREATE TABLE email_batches (
    user_id  text NOT NULL,
    batch    text NOT NULL,
    due_at   timestamptz NOT NULL,
    attempts int NOT NULL DEFAULT 0,
    PRIMARY KEY (user_id, batch)
);
CREATE INDEX email_batches_due ON email_batches (due_at);
