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
-- Which notice went to which device: a redelivered event pushes nothing twice.
CREATE TABLE push_deliveries (
    event_id        uuid NOT NULL,
    subscription_id uuid NOT NULL REFERENCES push_subscriptions ON DELETE CASCADE,
    sent_at         timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (event_id, subscription_id)
);
