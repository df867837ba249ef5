-- The app language of each device (issue 29): reminders pushed to it are written in it. The
-- app sends it with the subscription at every start; devices that subscribed before get
-- English until then.
ALTER TABLE push_subscriptions ADD COLUMN language text NOT NULL DEFAULT 'en';
