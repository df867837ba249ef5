-- The app language of each device: reminders pushed to it are written in it. The
-- app sends it with the subscription, and again when its language changes (a device that
-- subscribed before this sends it at its next start); until then it is English.
ALTER TABLE push_subscriptions ADD COLUMN language text NOT NULL DEFAULT 'en';
