-- Lists for someone else (docs/family.md): a list shared with a family may be kept for a
-- child or a teenager; the family's screen shows it under its recipient's name, with who keeps
-- it. Both come with wishlist's list.families events; a list of the owner's own has neither.
ALTER TABLE shared_lists
    ADD COLUMN recipient_name text NOT NULL DEFAULT '',
    ADD COLUMN managed_by     text[] NOT NULL DEFAULT '{}',
    -- The member a list is for: their Secret Santa is shown it among their lists.
    ADD COLUMN recipient_uid  text NOT NULL DEFAULT '';
