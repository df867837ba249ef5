-- created_at always held the event's occurredAt; name it so, and keep when the notice was stored
-- apart. The wishlist count a device is shown is that of the user's latest-occurred count event
-- (an event retried after a failure may be handled after a newer one), found by this index.
ALTER TABLE notices RENAME COLUMN created_at TO occurred_at;
ALTER TABLE notices ADD COLUMN stored_at timestamptz NOT NULL DEFAULT now();
CREATE INDEX notices_user_count ON notices (user_id, occurred_at DESC, seq DESC) WHERE event = 'wishlist-count';
