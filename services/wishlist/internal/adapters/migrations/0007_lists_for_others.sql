-- Lists for someone else (docs/family.md: lists for someone else, suggestions). A list names
-- its recipient; the people who keep a list for someone else are its managers. The promise
-- protects the recipient: the owner of a self list, or the member a list is for.
--
-- Safe on a populated database: every existing list is the owner's own (recipient 'self'),
-- the new columns have constant defaults (no table rewrite), and no existing row changes.
ALTER TABLE lists
    ADD COLUMN recipient_kind text NOT NULL DEFAULT 'self' CHECK (recipient_kind IN ('self', 'person', 'member')),
    -- A person's name ('person'), or the member's name as last seen ('member').
    ADD COLUMN recipient_name text NOT NULL DEFAULT '',
    ADD COLUMN recipient_uid  text,
    ADD CONSTRAINT lists_member_recipient CHECK ((recipient_kind = 'member') = (recipient_uid IS NOT NULL));
CREATE INDEX lists_recipient ON lists (recipient_uid) WHERE recipient_uid IS NOT NULL;

-- The managers of a list for someone else: its creator (the account the list lives in,
-- lists.user_id) and up to four co-managers. A self list has none.
CREATE TABLE list_managers (
    list_id      uuid NOT NULL REFERENCES lists (id) ON DELETE CASCADE,
    uid          text NOT NULL,
    display_name text NOT NULL DEFAULT '',
    added_at     timestamptz NOT NULL DEFAULT clock_timestamp(),
    PRIMARY KEY (list_id, uid)
);
CREATE INDEX list_managers_uid ON list_managers (uid);

-- Suggestions are items a giver added to someone else's list. They belong to their suggester
-- (user_id), so nothing scoped to the list's owner (their recent items, their counts, their
-- edits) ever meets one; the recipient's answers leave them out until a claim on one is
-- revealed.
ALTER TABLE items
    ADD COLUMN suggested_by      text,
    ADD COLUMN suggested_by_name text NOT NULL DEFAULT '';
CREATE INDEX items_suggestions ON items (list_id) WHERE suggested_by IS NOT NULL;

-- Member names, for naming a member recipient or a co-manager (family.member.joined's
-- displayName); empty for memberships projected before this migration.
ALTER TABLE family_memberships ADD COLUMN display_name text NOT NULL DEFAULT '';
