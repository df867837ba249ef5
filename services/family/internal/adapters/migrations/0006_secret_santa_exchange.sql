-- The Secret Santa exchange: when and where the presents are swapped (set by an admin, kept
-- across redraws), and whether the whole circle is shown to the participants once the
-- exchange day is over (chosen at the draw). Safe on a populated database: the new columns
-- are nullable or have defaults.
ALTER TABLE families
    ADD COLUMN exchange_on date,
    ADD COLUMN exchange_place text NOT NULL DEFAULT '';
ALTER TABLE secret_santa_draws ADD COLUMN reveal_after_exchange boolean NOT NULL DEFAULT false;
CREATE INDEX families_exchange_on ON families (exchange_on) WHERE exchange_on IS NOT NULL;
