-- Accounts erased here, by a hash of their uid (the uid itself is gone with the rest). The
-- event-driven writes (notices, queued emails) check it under the user's lock: an event for the
-- user still on its way when the erasure ran (its consumer was behind, or on another replica)
-- then stores nothing, instead of leaving a row about a deleted account.
CREATE TABLE erased_users (
    uid_hash bytea PRIMARY KEY,
    erased_at timestamptz NOT NULL DEFAULT now()
);
