-- The family service's projection of the lists members shared with families. wishlist owns
-- the lists and their familyIds and announces every change as list.families (a snapshot of
-- the list's sharing with a version); this table keeps the newest version of each list, so a
-- duplicate or an older redelivery changes nothing. A list that is no longer shared (or was
-- deleted) keeps its row with no families, so an older event cannot share it again.
CREATE TABLE shared_lists (
    list_id    uuid PRIMARY KEY,
    owner_uid  text NOT NULL,
    name       text NOT NULL,
    owner_name text NOT NULL,
    token      text,
    family_ids uuid[] NOT NULL,
    version    bigint NOT NULL
);
CREATE INDEX shared_lists_by_family ON shared_lists USING gin (family_ids);
