-- 0006: the quick-match queue (/play, bot/services/matchqueue.py): one row per waiting player, one queue per player
-- (user_id is the key: joining another queue moves them). A group is (guild_id, kind, seats, clock); the oldest
-- rows of a group are paired first. wait_until: when the free seats fill with AI seats (NULL: wait for people).
-- claimed_at: the row is taken by a match being opened (NULL: waiting); deleted once the game is stored, released
-- (or deleted, when its game exists) at start-up after a crash.
CREATE TABLE match_queue (
    user_id    INTEGER PRIMARY KEY,
    guild_id   INTEGER NOT NULL,
    channel_id INTEGER NOT NULL,
    kind       TEXT    NOT NULL,
    seats      INTEGER NOT NULL CHECK (seats BETWEEN 2 AND 8),
    clock      TEXT    NOT NULL,
    name       TEXT    NOT NULL,
    locale     TEXT,
    joined_at  REAL    NOT NULL,
    wait_until REAL,
    claimed_at REAL
);
CREATE INDEX match_queue_group ON match_queue (guild_id, kind, seats, clock, joined_at);
CREATE INDEX match_queue_wait ON match_queue (wait_until) WHERE wait_until IS NOT NULL;
CREATE INDEX match_queue_claimed ON match_queue (claimed_at) WHERE claimed_at IS NOT NULL;
-- Who was taken out of a queue without asking (blocked, game turned off, channel no longer allowed, at the cap):
-- told privately the next time they use /play, then deleted. reason: a message key (bot/locales/*_queuefix.py).
CREATE TABLE match_queue_notes (
    user_id  INTEGER PRIMARY KEY,
    guild_id INTEGER NOT NULL,
    kind     TEXT    NOT NULL,
    reason   TEXT    NOT NULL,
    at       REAL NOT NULL
);
