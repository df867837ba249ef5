-- Notices are numbered per user (1, 2, 3 …) instead of by one counter shared by everyone:
-- with a shared counter, the gaps between a user's own notice ids counted everyone else's
-- notices in between (how busy the product is, or how many claims were made on a list).
-- Insert hands out the next number under the per-user lock it already takes.
--
-- Safe on a populated database: each user's notices keep their order. A device resuming
-- from a number of the old counter asks for more than the user's newest, which the stream
-- already treats as "from now".
ALTER TABLE notices DROP CONSTRAINT notices_pkey;
ALTER TABLE notices ALTER COLUMN seq DROP DEFAULT;
DROP SEQUENCE IF EXISTS notices_seq_seq;
UPDATE notices n SET seq = r.per_user
FROM (SELECT event_id, row_number() OVER (PARTITION BY user_id ORDER BY seq) AS per_user FROM notices) AS r
WHERE r.event_id = n.event_id;
ALTER TABLE notices ADD PRIMARY KEY (user_id, seq);
DROP INDEX notices_user_seq;
