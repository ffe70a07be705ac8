-- 0008: tournaments (/tournament, bot/services/tournaments.py; pairings: bot/services/pairing.py). At most one
-- tournament per guild is open (taking entries) or running; the finished ones stay for their standings.
-- format: swiss | roundrobin. rounds: how many rounds it plays (a round robin: every opponent once). clock: the
-- clock preset of its games (bot/core/clock.py). round: the round being played (0 before the start).
CREATE TABLE tournaments (
    id           INTEGER PRIMARY KEY,
    guild_id     INTEGER NOT NULL,
    channel_id   INTEGER NOT NULL,
    kind         TEXT    NOT NULL,
    format       TEXT    NOT NULL CHECK (format IN ('swiss', 'roundrobin')),
    rounds       INTEGER NOT NULL CHECK (rounds BETWEEN 1 AND 30),
    clock        TEXT    NOT NULL,
    organiser_id INTEGER NOT NULL,
    status       TEXT    NOT NULL CHECK (status IN ('open', 'running', 'finished', 'cancelled')),
    round        INTEGER NOT NULL DEFAULT 0,
    locale       TEXT,
    created_at   REAL    NOT NULL,
    finished_at  REAL
);
CREATE UNIQUE INDEX tournaments_one_live ON tournaments (guild_id) WHERE status IN ('open', 'running');
CREATE INDEX tournaments_guild ON tournaments (guild_id, id);
-- The entrants, in the order they joined (the seeding). withdrawn: the round at which they withdrew (NULL: in).
CREATE TABLE tournament_players (
    tournament_id INTEGER NOT NULL REFERENCES tournaments (id) ON DELETE CASCADE,
    user_id       INTEGER NOT NULL,
    name          TEXT    NOT NULL,
    joined_at     REAL    NOT NULL,
    withdrawn     INTEGER,
    PRIMARY KEY (tournament_id, user_id)
);
-- The pairings, board by board: a has seat 0, b seat 1 (NULL: a bye). outcome: a | b | draw | none | bye
-- (NULL: being played). game_id: the game opened for it (NULL: not yet). opening_at: when its game began to open
-- (a crash between opening and linking: start-up looks for the game created since then).
CREATE TABLE tournament_games (
    tournament_id INTEGER NOT NULL REFERENCES tournaments (id) ON DELETE CASCADE,
    round         INTEGER NOT NULL,
    board         INTEGER NOT NULL,
    a             INTEGER NOT NULL,
    b             INTEGER,
    outcome       TEXT CHECK (outcome IN ('a', 'b', 'draw', 'none', 'bye')),
    game_id       INTEGER UNIQUE,
    opening_at    REAL,
    PRIMARY KEY (tournament_id, round, board)
);
CREATE INDEX tournament_games_open ON tournament_games (tournament_id) WHERE outcome IS NULL;
