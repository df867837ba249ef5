-- Reminders: "Christmas in 7 days: N gifts on your shopping list are not marked
-- purchased" to claimers, and "your list is empty" a month before a shared list's reveal date
-- to its owner. Each is sent once per (kind, subject, occasion): the key is inserted in the
-- transaction of the reminder's outbox event (pkg/reminders), so two replicas scanning at once,
-- or a replica restarted between its scan and its commit, never send one twice.
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

-- reveal_in_force as of a given moment (the reminder scan's clock) rather than now().
CREATE FUNCTION reveal_in_force_at(stored timestamptz, at timestamptz) RETURNS timestamptz
LANGUAGE plpgsql IMMUTABLE AS $$
DECLARE
    t timestamp := stored AT TIME ZONE 'UTC';
BEGIN
    WHILE (t AT TIME ZONE 'UTC') <= at LOOP
        t := t + interval '1 year';
    END LOOP;
    RETURN t AT TIME ZONE 'UTC';
END
$$;

-- The shopping scan reads the not-purchased claims of the coming week.
CREATE INDEX claims_not_purchased_by_reveal ON claims (reveal_at) WHERE NOT purchased;
