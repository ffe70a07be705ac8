-- 0007: Constructo puzzles (/puzzle, bot/services/puzzles.py). puzzle_daily: a server's daily puzzle, posted in
-- channel_id at hour:00 UTC. next_at: when the next one is due (Unix seconds); day: the UTC day (days since
-- 1970-01-01) of the last one claimed for posting, message_id its message once posted (NULL while being posted:
-- a restart posts it again under the same nonce). puzzle_answers: one answer per member and daily puzzle (the first
-- counts). puzzle_streaks: per server and member, daily puzzles solved in a row (streak, best) and in all.
CREATE TABLE puzzle_daily (
    guild_id   BIGINT PRIMARY KEY,
    channel_id BIGINT NOT NULL,
    hour       INTEGER NOT NULL CHECK (hour BETWEEN 0 AND 23),
    locale     TEXT,
    next_at    DOUBLE PRECISION NOT NULL,
    day        INTEGER NOT NULL DEFAULT -1,
    puzzle_id  INTEGER NOT NULL DEFAULT 0,
    message_id BIGINT,
    updated_at DOUBLE PRECISION NOT NULL
);
CREATE INDEX puzzle_daily_due ON puzzle_daily (next_at);
CREATE TABLE puzzle_answers (
    guild_id BIGINT NOT NULL,
    day      INTEGER NOT NULL,
    user_id  BIGINT NOT NULL,
    move     TEXT    NOT NULL,
    correct  INTEGER NOT NULL CHECK (correct IN (0, 1)),
    at       DOUBLE PRECISION NOT NULL,
    PRIMARY KEY (guild_id, day, user_id)
);
CREATE TABLE puzzle_streaks (
    guild_id   BIGINT NOT NULL,
    user_id    BIGINT NOT NULL,
    streak     INTEGER NOT NULL DEFAULT 0,
    best       INTEGER NOT NULL DEFAULT 0,
    solved     INTEGER NOT NULL DEFAULT 0,
    last_day   INTEGER NOT NULL DEFAULT -1,
    updated_at DOUBLE PRECISION NOT NULL,
    PRIMARY KEY (guild_id, user_id)
);
CREATE INDEX puzzle_streaks_rank ON puzzle_streaks (guild_id, best DESC);
