-- Each claim carries its own reveal date, the list's date in force when it was made, and the
-- owner sees a claim only once that date has passed: moving the list's date, or the item to
-- another list, can no longer reveal a claim early. A list lives for many seasons: when its
-- date passes it rolls to the same day a year later (reveal_in_force), and the claims of
-- past seasons stay as the list's gift history.
--
-- Safe on a populated database: existing claims take their list's current reveal date (so
-- what the owner could already see stays visible, and nothing hidden is shown), the link and
-- list they were made through are taken to be the current ones, and lists whose date has
-- passed move to their next season.

-- The season's reveal date of a list whose stored date may have passed: the same day a year
-- later, as often as needed. Computed in UTC so that a stored 26 December stays 26 December.
CREATE FUNCTION reveal_in_force(stored timestamptz) RETURNS timestamptz
LANGUAGE plpgsql STABLE AS $$
DECLARE
    t timestamp := stored AT TIME ZONE 'UTC';
BEGIN
    WHILE (t AT TIME ZONE 'UTC') <= now() LOOP
        t := t + interval '1 year';
    END LOOP;
    RETURN t AT TIME ZONE 'UTC';
END
$$;

ALTER TABLE claims
    ADD COLUMN reveal_at timestamptz,
    -- The list and link the claim was made through: the claimer's shopping list names that
    -- list, and links to it only while that same link still works.
    ADD COLUMN list_id   uuid,
    ADD COLUMN list_name text NOT NULL DEFAULT '',
    ADD COLUMN via_token text;

UPDATE claims c SET reveal_at = l.reveal_at, list_id = l.id, list_name = l.name, via_token = l.share_token
FROM items i JOIN lists l ON l.id = i.list_id
WHERE i.id = c.item_id;

ALTER TABLE claims ALTER COLUMN reveal_at SET NOT NULL;

-- One claim per claimer per item per season: a claimer may claim the same gift again in a
-- later season while last season's claim stays in the history.
ALTER TABLE claims DROP CONSTRAINT claims_pkey;
ALTER TABLE claims ADD PRIMARY KEY (item_id, user_id, reveal_at);

-- What is claimed now is the sum of the claims not yet revealed; a counter kept beside the
-- item could not follow claims as their dates pass.
ALTER TABLE items DROP COLUMN claimed;

UPDATE lists SET reveal_at = reveal_in_force(reveal_at) WHERE reveal_at <= now();
