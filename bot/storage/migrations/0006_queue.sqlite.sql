-- 0006: the quick-match queue (/play, bot/services/matchqueue.py): one row per waiting player, one queue per player
-- (user_id is the key: joining another queue moves them). A group is (guild_id, kind, seats, clock); the oldest
-- rows of a group are paired first. wait_until: when the free seats fill with AI seats (NULL: wait for people).
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
    wait_until REAL
);
CREATE INDEX match_queue_group ON match_queue (guild_id, kind, seats, clock, joined_at);
CREATE INDEX match_queue_wait ON match_queue (wait_until) WHERE wait_until IS NOT NULL;
