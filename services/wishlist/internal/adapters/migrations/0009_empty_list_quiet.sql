-- "Your list is empty" waits until a shared list has stayed empty for a while (docs/notifications.md:
-- reminders). Its window opens a month before the reveal date, so without a wait a list shared
-- empty in that month was reminded of seconds after it was shared, and a list whose last item
-- was just removed minutes after.
--
-- list_quiet holds, per list, the last moment the list became shared or lost one of its own
-- items (deleted, or moved to another list); a list without a row has been quiet since it was
-- created. The scan reminds a shared list with no items of its own only when that moment is at
-- least the quiet period (REMINDER_EMPTY_LIST_QUIET) before its clock.
--
-- Triggers keep it, so that every path that shares a list or removes an item (the item and
-- list routes, account erasure, the family events) is counted without each having to remember.
-- Suggestions are not the recipient's items and never count: a suggestion withdrawn must not
-- move the reminder (its timing would tell the recipient that one existed).
--
-- The table has no foreign key to lists on purpose: an item's removal writes here without
-- taking any lock on the list's row, which other transactions lock before its items.
--
-- Safe on a populated database: a new table and triggers; no existing row changes.
CREATE TABLE list_quiet (
    list_id uuid PRIMARY KEY,
    since   timestamptz NOT NULL
);

CREATE FUNCTION list_quiet_items_gone() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
    INSERT INTO list_quiet (list_id, since)
    SELECT list_id, clock_timestamp() FROM (SELECT DISTINCT list_id FROM gone WHERE suggested_by IS NULL) lists_gone
    ON CONFLICT (list_id) DO UPDATE SET since = greatest(list_quiet.since, EXCLUDED.since);
    RETURN NULL;
END
$$;
-- One statement deletes many items at once (a list's, an account's): one insert for them all.
CREATE TRIGGER items_gone_from_list AFTER DELETE ON items
    REFERENCING OLD TABLE AS gone FOR EACH STATEMENT EXECUTE FUNCTION list_quiet_items_gone();

CREATE FUNCTION list_quiet_item_moved() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
    INSERT INTO list_quiet (list_id, since) VALUES (OLD.list_id, clock_timestamp())
    ON CONFLICT (list_id) DO UPDATE SET since = greatest(list_quiet.since, EXCLUDED.since);
    RETURN NULL;
END
$$;
CREATE TRIGGER items_moved_from_list AFTER UPDATE OF list_id ON items FOR EACH ROW
    WHEN (OLD.list_id IS DISTINCT FROM NEW.list_id AND OLD.suggested_by IS NULL)
    EXECUTE FUNCTION list_quiet_item_moved();

CREATE FUNCTION list_quiet_shared() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
    INSERT INTO list_quiet (list_id, since) VALUES (NEW.id, clock_timestamp())
    ON CONFLICT (list_id) DO UPDATE SET since = greatest(list_quiet.since, EXCLUDED.since);
    RETURN NULL;
END
$$;
-- Shared: by a link or with a family (as the scan reads it); only the moment a list that was
-- shared with nobody becomes shared counts.
CREATE TRIGGER lists_became_shared AFTER UPDATE OF share_token, family_ids ON lists FOR EACH ROW
    WHEN (OLD.share_token IS NULL AND cardinality(OLD.family_ids) = 0
          AND (NEW.share_token IS NOT NULL OR cardinality(NEW.family_ids) > 0))
    EXECUTE FUNCTION list_quiet_shared();

CREATE FUNCTION list_quiet_list_deleted() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
    DELETE FROM list_quiet WHERE list_id = OLD.id;
    RETURN NULL;
END
$$;
CREATE TRIGGER lists_deleted_quiet AFTER DELETE ON lists FOR EACH ROW
    EXECUTE FUNCTION list_quiet_list_deleted();
