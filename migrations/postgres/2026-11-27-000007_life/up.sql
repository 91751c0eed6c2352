-- A refereed game's life beside its plies (issue 43): clocks chosen at the deal, the seats
-- the service's engine plays, the time each ply was committed, and the events that are not
-- plies (a draw offered, declined or agreed, a resignation, an abort, a flag fall, a claim
-- against a silent seat), each final once written, like a ply. Games dealt before keep playing: no clock, no events yet, and
-- their earlier plies without a time.
ALTER TABLE ledger ADD COLUMN clock_base_ms BIGINT;        -- Fischer: each seat's time; NULL: no clock
ALTER TABLE ledger ADD COLUMN clock_increment_ms BIGINT;   -- added after each of a seat's moves
ALTER TABLE ledger ADD COLUMN claim_after_ms BIGINT;       -- a seat to move silent this long can be claimed against; NULL: never
ALTER TABLE ledger ADD COLUMN events INTEGER NOT NULL DEFAULT 0;  -- events committed
ALTER TABLE ledger ADD COLUMN engines TEXT;                -- seats the service's engine plays: {"player2": 100} (ms a move); NULL: none
ALTER TABLE ledger_actions ADD COLUMN at_ms BIGINT;        -- Unix milliseconds of the commit
CREATE TABLE ledger_events (
    game_id TEXT NOT NULL REFERENCES ledger (game_id) ON DELETE CASCADE,
    seq INTEGER NOT NULL,               -- 0 for the game's first event
    ply INTEGER NOT NULL,               -- plies committed before it
    kind TEXT NOT NULL,                 -- draw_offer, draw_decline, draw_agreed, resign, abort, flag, claim
    seat TEXT,                          -- who: player1 …; NULL for the game's own token's abort
    at_ms BIGINT NOT NULL,              -- Unix milliseconds of the commit
    PRIMARY KEY (game_id, seq)
);
