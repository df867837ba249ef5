-- One row per event whose email went out: a redelivered event sends nothing twice.
CREATE TABLE sent_emails (
    event_id uuid PRIMARY KEY,
    sent_at  timestamptz NOT NULL DEFAULT now()
);
