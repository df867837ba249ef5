-- One row per device that asked for Web Push. The endpoint is the device's: a browser signed in
-- as someone else takes it over.
CREATE TABLE push_subscriptions (
    id         uuid PRIMARY KEY,
    user_id    text NOT NULL,
    endpoint   text NOT NULL UNIQUE,
    p256dh     text NOT NULL,
    auth       text NOT NULL,
    created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX push_subscriptions_user ON push_subscriptions (user_id);
-- Which notice went to which device. A row is claimed before the push is sent and marked sent
-- after, so neither a redelivered event nor one handled twice at once pushes anything twice; a
-- failed push releases its claim, and a claim left by a crash can be taken again later.
CREATE TABLE push_deliveries (
    event_id        uuid NOT NULL,
    subscription_id uuid NOT NULL REFERENCES push_subscriptions ON DELETE CASCADE,
    claimed_at      timestamptz NOT NULL DEFAULT now(),
    sent_at         timestamptz,
    PRIMARY KEY (event_id, subscription_id)
);
