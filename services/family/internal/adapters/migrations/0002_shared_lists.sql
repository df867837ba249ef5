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

-- wishlist learns memberships from family.member.joined only, and families made before this
-- migration announced no maker: every existing membership is announced once, as of when it
-- began. admins names the member alone, so notification tells nobody (it never tells the
-- new member about themselves).
INSERT INTO outbox (id, subject, payload)
SELECT e.id, 'family.member.joined', jsonb_build_object(
    'id', e.id, 'type', 'family.member.joined',
    'occurredAt', to_char(e.joined_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"'),
    'userId', e.uid,
    'data', jsonb_build_object('familyId', e.family_id, 'familyName', e.name, 'uid', e.uid,
        'displayName', e.display_name, 'role', e.role, 'admins', jsonb_build_array(e.uid)))
FROM (SELECT gen_random_uuid() AS id, m.family_id, f.name, m.uid, m.display_name, m.role, m.joined_at
      FROM family_members m JOIN families f ON f.id = m.family_id) AS e;
