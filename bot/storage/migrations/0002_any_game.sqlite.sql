-- 0002: storage knows no game by name; clocks, how games ended, per-player outcomes, guild settings.
--  * games and ratings accept any game kind (the CHECK naming the two games goes: SQLite can only
--    drop a CHECK by rebuilding the table, done here the documented way, foreign keys off);
--  * games.wake_at: the next moment (Unix seconds) the game layer must look at an open game
--    (reminder, timeout, expiry); NULL = nothing scheduled. Indexed for open games;
--  * games.finished_at / games.end_reason: when and why a game was finished or aborted;
--  * game_outcomes: one row per human seat of every game finished with a result (place, W/D/L,
--    rated, against the AI) for stats and history; back-filled from rating_changes (rated games);
--  * guild_settings: per-guild JSON values set by admins (clock presets...).

CREATE TABLE games_new (
    id          INTEGER PRIMARY KEY,
    kind        TEXT    NOT NULL CHECK (length(kind) BETWEEN 1 AND 32),
    guild_id    INTEGER NOT NULL,
    channel_id  INTEGER NOT NULL,
    status      TEXT    NOT NULL CHECK (status IN ('lobby', 'active', 'finished', 'aborted')),
    state_json  TEXT    NOT NULL,
    initial_state_json TEXT NOT NULL,
    version     INTEGER NOT NULL DEFAULT 0 CHECK (version >= 0),
    result_json TEXT,
    created_at  REAL    NOT NULL,
    updated_at  REAL    NOT NULL,
    wake_at     REAL,
    finished_at REAL,
    end_reason  TEXT
);

INSERT INTO games_new (id, kind, guild_id, channel_id, status, state_json, initial_state_json, version,
                       result_json, created_at, updated_at, wake_at, finished_at, end_reason)
SELECT id, kind, guild_id, channel_id, status, state_json, initial_state_json, version, result_json,
       created_at, updated_at, NULL,
       CASE WHEN status IN ('finished', 'aborted') THEN updated_at END,
       CASE WHEN status = 'aborted' THEN 'abort' END
FROM games;

DROP TABLE games;
ALTER TABLE games_new RENAME TO games;

CREATE UNIQUE INDEX games_one_open_per_channel ON games (channel_id) WHERE status IN ('lobby', 'active');
CREATE INDEX games_open ON games (status, id) WHERE status IN ('lobby', 'active');
CREATE INDEX games_by_guild ON games (guild_id, kind, status);
CREATE INDEX games_wake ON games (wake_at, id) WHERE status IN ('lobby', 'active') AND wake_at IS NOT NULL;

CREATE TABLE ratings_new (
    guild_id   INTEGER NOT NULL,
    kind       TEXT    NOT NULL CHECK (length(kind) BETWEEN 1 AND 32),
    user_id    INTEGER NOT NULL,
    mu         REAL    NOT NULL,
    sigma      REAL    NOT NULL CHECK (sigma > 0),
    ordinal    REAL    NOT NULL,
    games      INTEGER NOT NULL DEFAULT 0,
    wins       INTEGER NOT NULL DEFAULT 0,
    losses     INTEGER NOT NULL DEFAULT 0,
    draws      INTEGER NOT NULL DEFAULT 0,
    updated_at REAL    NOT NULL,
    PRIMARY KEY (guild_id, kind, user_id)
) WITHOUT ROWID;

INSERT INTO ratings_new SELECT guild_id, kind, user_id, mu, sigma, ordinal, games, wins, losses, draws, updated_at
FROM ratings;
DROP TABLE ratings;
ALTER TABLE ratings_new RENAME TO ratings;
CREATE INDEX ratings_board ON ratings (guild_id, kind, ordinal DESC, user_id);

CREATE TABLE game_outcomes (
    game_id  INTEGER NOT NULL REFERENCES games (id),
    user_id  INTEGER NOT NULL,
    guild_id INTEGER NOT NULL,
    kind     TEXT    NOT NULL,
    place    INTEGER NOT NULL CHECK (place >= 1),          -- 1 + players ranked strictly ahead (1, 1, 3)
    outcome  TEXT    NOT NULL CHECK (outcome IN ('win', 'loss', 'draw')),
    rated    INTEGER NOT NULL CHECK (rated IN (0, 1)),
    vs_ai    INTEGER NOT NULL CHECK (vs_ai IN (0, 1)),     -- the game had an AI seat
    PRIMARY KEY (game_id, user_id)
) WITHOUT ROWID;
CREATE INDEX game_outcomes_by_player ON game_outcomes (guild_id, kind, user_id);

INSERT INTO game_outcomes (game_id, user_id, guild_id, kind, place, outcome, rated, vs_ai)
SELECT r.game_id, r.user_id, g.guild_id, g.kind,
       1 + (SELECT count(*) FROM rating_changes a WHERE a.game_id = r.game_id AND a.place < r.place),
       r.outcome, 1, 0
FROM rating_changes r JOIN games g ON g.id = r.game_id;

CREATE TABLE guild_settings (
    guild_id   INTEGER NOT NULL,
    key        TEXT    NOT NULL,
    value_json TEXT    NOT NULL,
    updated_at REAL    NOT NULL,
    PRIMARY KEY (guild_id, key)
) WITHOUT ROWID;
