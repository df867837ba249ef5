-- Secret Santa conversations. Safe on a populated database: the new column has a default
-- and the new table starts empty.

-- Each pair gets a random handle, so a conversation is stored against the giver's assignment
-- and never beside a uid: a message row names nobody, and who wrote it (the Santa or the
-- giftee) is a boolean relative to the pair. Reading a conversation goes through the pair row,
-- as reading one's match does; no query answers the pair itself to the giftee.
ALTER TABLE secret_santa_pairs ADD COLUMN id uuid NOT NULL DEFAULT gen_random_uuid();
ALTER TABLE secret_santa_pairs ADD CONSTRAINT secret_santa_pairs_id_key UNIQUE (id);

-- A new draw (or a cancelled one) deletes the pairs, and with them every conversation.
CREATE TABLE secret_santa_messages (
    id         uuid PRIMARY KEY,
    pair_id    uuid NOT NULL REFERENCES secret_santa_pairs (id) ON DELETE CASCADE,
    from_giver boolean NOT NULL,
    body       text NOT NULL CHECK (char_length(body) BETWEEN 1 AND 500),
    sent_at    timestamptz NOT NULL
);
CREATE INDEX secret_santa_messages_by_pair ON secret_santa_messages (pair_id, sent_at);
