-- 0001: initial schema of the tablebot database.
-- Applied inside one BEGIN IMMEDIATE transaction by bot/storage/migrate.py, which also sets
-- PRAGMA user_version. Times are Unix seconds (REAL, UTC). Ids (guild, channel, user, message)
-- are Discord snowflakes stored as INTEGER; the storage layer knows no discord types.

CREATE TABLE games (
    id          INTEGER PRIMARY KEY,
    kind        TEXT    NOT NULL CHECK (kind IN ('constructo', 'conex')),
    guild_id    INTEGER NOT NULL,
    channel_id  INTEGER NOT NULL,               -- a thread is a channel
    status      TEXT    NOT NULL CHECK (status IN ('lobby', 'active', 'finished', 'aborted')),
    state_json  TEXT    NOT NULL,               -- engine state (to_dict) after `version` actions
    initial_state_json TEXT NOT NULL,           -- engine state at version 0: replay starts here
    version     INTEGER NOT NULL DEFAULT 0 CHECK (version >= 0),
    result_json TEXT,                           -- {"ranking": [[user ids]...], "rated": bool} once finished
    created_at  REAL    NOT NULL,
    updated_at  REAL    NOT NULL
);

-- At most one open (lobby or active) game per channel, enforced by the schema.
CREATE UNIQUE INDEX games_one_open_per_channel ON games (channel_id) WHERE status IN ('lobby', 'active');
CREATE INDEX games_open ON games (status, id) WHERE status IN ('lobby', 'active');
CREATE INDEX games_by_guild ON games (guild_id, kind, status);

CREATE TABLE game_players (
    game_id INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    seat    INTEGER NOT NULL CHECK (seat >= 0),
    user_id INTEGER NOT NULL,
    PRIMARY KEY (game_id, seat),
    UNIQUE (game_id, user_id)
) WITHOUT ROWID;
CREATE INDEX game_players_by_user ON game_players (user_id, game_id);

CREATE TABLE game_messages (
    game_id    INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    key        TEXT    NOT NULL,                -- e.g. 'board', 'lobby', 'hand:<user id>'
    message_id INTEGER NOT NULL,
    PRIMARY KEY (game_id, key)
) WITHOUT ROWID;

-- Append-only action log: seq n is the action that took the game from version n-1 to n.
CREATE TABLE actions (
    game_id INTEGER NOT NULL REFERENCES games (id),
    seq     INTEGER NOT NULL CHECK (seq >= 1),
    player  INTEGER,                            -- acting user id; NULL = the bot itself (timeout, scheduler)
    action  TEXT    NOT NULL,
    at      REAL    NOT NULL,
    PRIMARY KEY (game_id, seq)
) WITHOUT ROWID;

CREATE TRIGGER actions_append_only_update BEFORE UPDATE ON actions
BEGIN
    SELECT RAISE(ABORT, 'actions is an append-only log');
END;

CREATE TRIGGER actions_append_only_delete BEFORE DELETE ON actions
BEGIN
    SELECT RAISE(ABORT, 'actions is an append-only log');
END;

-- openskill (Plackett-Luce) ratings per guild and game kind. ordinal = mu - 3 sigma.
CREATE TABLE ratings (
    guild_id   INTEGER NOT NULL,
    kind       TEXT    NOT NULL CHECK (kind IN ('constructo', 'conex')),
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

-- Leaderboard order: best ordinal first, then lowest user id. Covers the top-N and rank queries.
CREATE INDEX ratings_board ON ratings (guild_id, kind, ordinal DESC, user_id);

-- What each rated game did to each player's rating (for result messages and audits).
CREATE TABLE rating_changes (
    game_id      INTEGER NOT NULL REFERENCES games (id),
    user_id      INTEGER NOT NULL,
    place        INTEGER NOT NULL CHECK (place >= 1),   -- 1 = first group of the ranking
    outcome      TEXT    NOT NULL CHECK (outcome IN ('win', 'loss', 'draw')),
    mu_before    REAL    NOT NULL,
    sigma_before REAL    NOT NULL,
    mu_after     REAL    NOT NULL,
    sigma_after  REAL    NOT NULL,
    PRIMARY KEY (game_id, user_id)
) WITHOUT ROWID;

CREATE TABLE user_prefs (
    user_id    INTEGER PRIMARY KEY,
    language   TEXT,                            -- e.g. 'en', 'fr', 'pt-BR'; NULL = the interaction's locale
    palette    TEXT,                            -- colour-blind palette name; NULL = the default palette
    theme      TEXT,                            -- 'dark' or 'light'; NULL = default
    updated_at REAL NOT NULL
);

CREATE TABLE meta (
    key   TEXT PRIMARY KEY,
    value TEXT NOT NULL
) WITHOUT ROWID;
