-- Giving together, budgets, thanks and what I gave (docs/family.md: giving together, and thanks
-- afterwards). Amounts are whole minor units of their currency (bigint): no floating point is
-- ever stored or summed.
--
-- Safe on a populated database: only new tables and nullable columns with no default (no table
-- rewrite); no existing row changes.

-- A group gift on an item, for one season: like a claim, it takes the list's reveal date in force
-- when it is started and is secret from the recipient until then. Once the pledges reach the
-- target (completed_at), it holds units (the units that were free when it started) as a claim
-- would. At most one per item and season; started under the item's row lock.
-- An amount of minor units as the API's decimal string with the currency's digits: 2500, 2 →
-- '25.00'; 2500, 0 → '2500'. numeric is exact (no floating point).
CREATE FUNCTION money_text(minor bigint, digits smallint) RETURNS text
LANGUAGE sql IMMUTABLE STRICT AS $$ SELECT round(minor::numeric / power(10::numeric, digits), digits)::text $$;

CREATE TABLE group_gifts (
    id             uuid PRIMARY KEY,
    item_id        uuid NOT NULL REFERENCES items (id) ON DELETE CASCADE,
    organizer_uid  text NOT NULL,
    organizer_name text NOT NULL,
    target_minor   bigint NOT NULL CHECK (target_minor > 0),
    currency       text NOT NULL CHECK (currency ~ '^[A-Z]{3}$'),
    -- The currency's decimal digits (ISO 4217), so answers written in SQL show "25.00".
    digits         smallint NOT NULL CHECK (digits BETWEEN 0 AND 4),
    units          smallint NOT NULL CHECK (units BETWEEN 1 AND 99),
    reveal_at      timestamptz NOT NULL,
    -- The list and link it was started through, as for claims (the giver's shopping list).
    list_id        uuid NOT NULL,
    list_name      text NOT NULL,
    via_token      text,
    completed_at   timestamptz,
    created_at     timestamptz NOT NULL DEFAULT clock_timestamp()
);
CREATE INDEX group_gifts_item ON group_gifts (item_id, reveal_at);

CREATE TABLE pledges (
    group_gift_id uuid NOT NULL REFERENCES group_gifts (id) ON DELETE CASCADE,
    user_id       text NOT NULL,
    display_name  text NOT NULL,
    amount_minor  bigint NOT NULL CHECK (amount_minor > 0),
    created_at    timestamptz NOT NULL DEFAULT clock_timestamp(),
    -- Set when the recipient thanks the givers (after the reveal).
    thanks_message text,
    thanks_at      timestamptz,
    PRIMARY KEY (group_gift_id, user_id)
);
CREATE INDEX pledges_user ON pledges (user_id);

-- Thanks on a revealed claim.
ALTER TABLE claims
    ADD COLUMN thanks_message text,
    ADD COLUMN thanks_at      timestamptz;

-- A giver's private budget per person they give to. recipient_key is "u:<uid>" for a person with
-- an account and "l:<listId>" for a list kept for someone without one.
CREATE TABLE budgets (
    user_id       text NOT NULL,
    recipient_key text NOT NULL,
    display_name  text NOT NULL,
    amount_minor  bigint NOT NULL CHECK (amount_minor > 0),
    currency      text NOT NULL CHECK (currency ~ '^[A-Z]{3}$'),
    PRIMARY KEY (user_id, recipient_key)
);

-- What I gave: revealed claims and pledges, kept when their item or list is deleted (the live
-- rows go with the item). Written in the transaction that deletes the item; the giver's own
-- history, deleted with the giver's account.
CREATE TABLE gifts_given (
    user_id        text NOT NULL,
    item_id        uuid NOT NULL,
    reveal_at      timestamptz NOT NULL,
    kind           text NOT NULL CHECK (kind IN ('claim', 'pledge')),
    recipient_name text NOT NULL,
    item_name      text NOT NULL,
    quantity       smallint NOT NULL,
    amount_minor   bigint,
    currency       text,
    thanks_message text,
    thanks_at      timestamptz,
    PRIMARY KEY (user_id, item_id, reveal_at, kind)
);
