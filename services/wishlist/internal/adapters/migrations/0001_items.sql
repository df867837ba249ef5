CREATE TABLE items (
    id            uuid PRIMARY KEY,
    user_id       text NOT NULL,
    name          text NOT NULL,
    description   text NOT NULL,
    price         text,
    image_url     text,
    category      text,
    features      jsonb NOT NULL DEFAULT '[]'::jsonb,
    search_query  text NOT NULL,
    shopping_url  text NOT NULL,
    ai_generated  boolean NOT NULL DEFAULT false,
    sent_to_santa boolean NOT NULL DEFAULT false,
    created_at    timestamptz NOT NULL DEFAULT now()
);

-- Every read is "this user's items, newest first".
CREATE INDEX items_user_newest ON items (user_id, created_at DESC, id DESC);

-- Transactional outbox (pkg/outbox): events commit with the rows they describe.
CREATE TABLE outbox (
    id           uuid PRIMARY KEY,
    subject      text NOT NULL,
    payload      jsonb NOT NULL,
    created_at   timestamptz NOT NULL DEFAULT clock_timestamp(),
    published_at timestamptz
);
CREATE INDEX outbox_pending ON outbox (created_at) WHERE published_at IS NULL;
