-- Account deletions. The only trace a deleted account leaves: its uid and dates.
-- Each *_erased_at is when that service confirmed (user.erased); completed_at is set when the
-- last one did, and until then GET /api/account answers deletionPending.
CREATE TABLE account_deletions (
    uid                    text PRIMARY KEY,
    requested_at           timestamptz NOT NULL DEFAULT now(),
    wishlist_erased_at     timestamptz,
    family_erased_at       timestamptz,
    notification_erased_at timestamptz,
    media_erased_at        timestamptz,
    vision_erased_at       timestamptz,
    gateway_erased_at      timestamptz,
    completed_at           timestamptz
);
