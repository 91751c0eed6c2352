-- One row per distinct game record. `content_hash` (SHA-256 of the record's canonical JSON)
-- makes imports idempotent: the same record is stored once.
CREATE TABLE games (
    id INTEGER PRIMARY KEY AUTOINCREMENT NOT NULL,
    content_hash TEXT NOT NULL UNIQUE,
    game TEXT NOT NULL,
    preset TEXT NOT NULL,
    options TEXT NOT NULL,          -- the record's option overrides as JSON ({} when none)
    player1 TEXT NOT NULL,
    player2 TEXT NOT NULL,
    layout TEXT,                    -- 32 letters when the dealer is known
    start TEXT,                     -- a start position string, when not the standard start
    actions TEXT NOT NULL,          -- the actions in notation, separated by single spaces
    plies INTEGER NOT NULL,
    stated_outcome TEXT,            -- player1 | player2 | draw | ongoing, as the record says
    stated_reason TEXT,
    derived_outcome TEXT,           -- as the rules derive it; NULL while ongoing
    derived_reason TEXT,
    result TEXT NOT NULL,           -- the result scored: stated if any, else derived; 'ongoing'
    reason TEXT,
    first_flips TEXT,               -- the first two actions, e.g. 'b8(G) d8(g)'
    doubled BOOLEAN NOT NULL,       -- 門棋加倍
    points1 INTEGER NOT NULL,
    points2 INTEGER NOT NULL,
    played_on TEXT,                 -- YYYY-MM-DD when the record's metadata gives a date
    source TEXT NOT NULL,           -- where it was imported from (file#n, or 'http')
    imported_at TEXT NOT NULL,      -- RFC 3339, UTC
    record TEXT NOT NULL            -- the record as JSON, for export
);
CREATE INDEX games_preset ON games (preset, id);
CREATE INDEX games_player1 ON games (player1, id);
CREATE INDEX games_player2 ON games (player2, id);
CREATE INDEX games_result ON games (result, id);
CREATE INDEX games_played_on ON games (played_on, id);
