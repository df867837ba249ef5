-- Invitations that really shut people out, and draws whose exclusions every participant sees.
-- Safe on a populated database: new columns are nullable or have defaults, and the new table
-- starts empty (removals made before this migration were not recorded, so they bar nobody).

-- When each member last left or was removed: an invitation made before that moment does not
-- let them back in (only a newer one does).
CREATE TABLE family_departures (
    family_id uuid NOT NULL REFERENCES families ON DELETE CASCADE,
    uid       text NOT NULL,
    left_at   timestamptz NOT NULL,
    PRIMARY KEY (family_id, uid)
);
CREATE INDEX family_departures_by_uid ON family_departures (uid);

-- The exclusions a draw used, as [[uidA, uidB], ...] (each pair in uid order), shown to every
-- participant; NULL for draws made before they were kept. everyone_can_deduce: a draw of three
-- (or two), where each participant's own match tells the whole draw.
ALTER TABLE secret_santa_draws ADD COLUMN exclusions jsonb;
ALTER TABLE secret_santa_draws ADD COLUMN everyone_can_deduce boolean NOT NULL DEFAULT false;
UPDATE secret_santa_draws d SET everyone_can_deduce = true
WHERE (SELECT count(*) FROM secret_santa_pairs p WHERE p.family_id = d.family_id) BETWEEN 1 AND 3;
