-- A planned Secret Santa draw date: an admin sets the family's drawOn, and every
-- admin is reminded 3 days before when the family has not drawn since the date was set.
-- Safe on a populated database: the new columns are nullable and the new table starts empty.
ALTER TABLE families
    ADD COLUMN draw_on date,
    -- When drawOn was last set: a draw made since then is the planned one.
    ADD COLUMN draw_on_set_at timestamptz;

-- Each reminder is sent once per (kind, subject, occasion): the key is inserted in the
-- transaction of the reminder's outbox event (pkg/reminders).
CREATE TABLE sent_reminders (
    kind      text NOT NULL,
    subject   text NOT NULL,
    occasion  text NOT NULL,
    recipient text NOT NULL,
    event_id  uuid NOT NULL,
    sent_at   timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (kind, subject, occasion)
);
CREATE INDEX sent_reminders_recipient ON sent_reminders (recipient);
CREATE INDEX families_draw_on ON families (draw_on) WHERE draw_on IS NOT NULL;
