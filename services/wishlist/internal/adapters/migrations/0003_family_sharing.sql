-- Lists shared with families (docs/family.md: families). wishlist owns familyIds; it learns who
-- belongs to which family from the family service's events only (family.member.joined,
-- family.member.left), never from the family service's tables.
ALTER TABLE lists
    ADD COLUMN family_ids uuid[] NOT NULL DEFAULT '{}',
    -- Grows with every list.families event of the list, so the family service keeps the newest.
    ADD COLUMN families_version bigint NOT NULL DEFAULT 0;
CREATE INDEX lists_family_ids ON lists USING gin (family_ids);

-- wishlist's projection of family memberships. A row is kept when someone leaves (member =
-- false) so that an older event delivered late cannot bring them back: an event is applied
-- only when it is newer than as_of (the event's occurredAt, in microseconds).
CREATE TABLE family_memberships (
    family_id uuid NOT NULL,
    uid       text NOT NULL,
    member    boolean NOT NULL,
    as_of     timestamptz NOT NULL,
    PRIMARY KEY (family_id, uid)
);
CREATE INDEX family_memberships_by_uid ON family_memberships (uid) WHERE member;

-- Families that were deleted (their last member left): no later join revives them here.
CREATE TABLE families_deleted (
    family_id  uuid PRIMARY KEY,
    deleted_at timestamptz NOT NULL
);
