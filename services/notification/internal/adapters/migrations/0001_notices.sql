-- Each user's notices. event_id makes a redelivered event a no-op; seq is the SSE event id a
-- reconnecting device resumes from.
CREATE TABLE notices (
    seq        bigserial PRIMARY KEY,
    event_id   uuid NOT NULL UNIQUE,
    user_id    text NOT NULL,
    event      text NOT NULL,
    data       json NOT NULL, -- json, not jsonb: kept byte for byte as pushed live
    created_at timestamptz NOT NULL
);
CREATE INDEX notices_user_seq ON notices (user_id, seq);
