-- Family lists (docs/family.md: lists and items, sharing a list, claiming a gift).
-- Safe on a populated database: the new item columns have constant defaults (no table
-- rewrite), every user who has items gets a default list holding them, and list_id becomes
-- NOT NULL only once every row has one. It runs in one transaction like every migration.
CREATE TABLE lists (
    id          uuid PRIMARY KEY,
    user_id     text NOT NULL,
    name        text NOT NULL,
    is_default  boolean NOT NULL DEFAULT false,
    -- Before this moment the owner's answers are built without claim data.
    reveal_at   timestamptz NOT NULL,
    share_token text UNIQUE,
    -- Shown to viewers ("Emma's list"); refreshed from the owner's verified name on each write.
    owner_name  text NOT NULL DEFAULT '',
    created_at  timestamptz NOT NULL DEFAULT clock_timestamp()
);
CREATE UNIQUE INDEX lists_one_default ON lists (user_id) WHERE is_default;
CREATE INDEX lists_user ON lists (user_id, created_at);

-- Every user with items gets the default list; its reveal date is 26 December of the coming
-- Christmas (UTC), as for lists made later (domain.DefaultRevealAt).
WITH this_year AS (
    SELECT make_timestamptz(extract(year FROM now() AT TIME ZONE 'UTC')::int, 12, 26, 0, 0, 0, 'UTC') AS boxing_day
)
INSERT INTO lists (id, user_id, name, is_default, reveal_at)
SELECT gen_random_uuid(), owners.user_id, 'My Wishlist', true,
       CASE WHEN now() < boxing_day THEN boxing_day ELSE boxing_day + interval '1 year' END
FROM (SELECT DISTINCT user_id FROM items) AS owners, this_year;

ALTER TABLE items
    ADD COLUMN list_id  uuid REFERENCES lists (id),
    ADD COLUMN priority smallint NOT NULL DEFAULT 2 CHECK (priority BETWEEN 1 AND 3),
    ADD COLUMN quantity smallint NOT NULL DEFAULT 1 CHECK (quantity BETWEEN 1 AND 99),
    ADD COLUMN notes    text NOT NULL DEFAULT '',
    -- Units claimed by anyone: the sum of the item's claims, kept by the claim transactions
    -- (which hold the item's row lock), so the shared view reads it without aggregating.
    -- Never part of the owner's projection.
    ADD COLUMN claimed  smallint NOT NULL DEFAULT 0 CHECK (claimed BETWEEN 0 AND 99);
UPDATE items SET list_id = lists.id FROM lists WHERE lists.user_id = items.user_id AND lists.is_default;
ALTER TABLE items ALTER COLUMN list_id SET NOT NULL;
-- The owner's list and the shared view read one list, newest first / most wanted first.
CREATE INDEX items_list_newest ON items (list_id, created_at DESC, id DESC);

-- Claims live beside the items they count, so "not enough left" is decided in the
-- transaction that holds the item's row lock.
CREATE TABLE claims (
    item_id      uuid NOT NULL REFERENCES items (id) ON DELETE CASCADE,
    user_id      text NOT NULL,
    display_name text NOT NULL,
    quantity     smallint NOT NULL CHECK (quantity BETWEEN 1 AND 99),
    purchased    boolean NOT NULL DEFAULT false,
    created_at   timestamptz NOT NULL DEFAULT clock_timestamp(),
    PRIMARY KEY (item_id, user_id)
);
CREATE INDEX claims_user ON claims (user_id, created_at DESC);

-- Signed-in non-owners who opened a shared list, for shared-list-changed (last 24 hours).
CREATE TABLE list_viewers (
    list_id uuid NOT NULL REFERENCES lists (id) ON DELETE CASCADE,
    user_id text NOT NULL,
    seen_at timestamptz NOT NULL,
    PRIMARY KEY (list_id, user_id)
);
