-- The referee's ledger: one row per game it deals, and every action committed in it. An
-- action is final once its row is written (one per ply: the primary key), so that an answer
-- that reveals something always follows an action that cannot be taken back. The hidden truth
-- is sealed under the service's seal key (a reader of this file learns no layout). When a
-- game ends, its complete record is stored in `games` (`stored_game`), its actions here are
-- deleted and its sealed truth dropped (the record holds the layout: public then).
CREATE TABLE ledger (
    game_id TEXT PRIMARY KEY NOT NULL,  -- 128 random bits in hex, from the deal
    game TEXT NOT NULL,
    preset TEXT NOT NULL,
    options TEXT NOT NULL,              -- the game's overrides as canonical JSON ({} when none)
    players TEXT NOT NULL,              -- JSON array of names
    sealed_truth TEXT,                  -- the hidden truth sealed; NULL once stored or when none
    seed TEXT,                          -- a seed the dealer was given (public); NULL when random
    plies INTEGER NOT NULL,             -- actions committed
    result TEXT,                        -- the outcome once the game has ended, else NULL
    stored_game BIGINT REFERENCES games (id) ON DELETE SET NULL,
    created_at BIGINT NOT NULL,         -- Unix seconds
    updated_at BIGINT NOT NULL          -- Unix seconds of the last action (expiry)
);
-- No index on updated_at: the expiry sweep (once a minute at most) scans; every commit would
-- rewrite an index entry.
CREATE TABLE ledger_actions (
    game_id TEXT NOT NULL REFERENCES ledger (game_id) ON DELETE CASCADE,
    ply INTEGER NOT NULL,               -- 0 for the first action
    action TEXT NOT NULL,               -- as played, every revealed identity written out
    PRIMARY KEY (game_id, ply)
);
