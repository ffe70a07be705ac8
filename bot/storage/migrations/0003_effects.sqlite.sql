-- 0003: the outbox of effects. Every accepted action commits, in its own transaction, the work it owes
-- after the commit (post this board, strip that message, let the AI seat move, ...): one row per effect,
-- keyed (game_id, version, kind) so an effect is never owed twice. Workers claim due rows
-- (claimed_by/claimed_until), run them and delete them; a failure pushes due_at back (attempts + 1).
CREATE TABLE effects (
    id            INTEGER PRIMARY KEY,
    game_id       INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    guild_id      INTEGER NOT NULL,
    version       INTEGER NOT NULL CHECK (version >= 0),
    kind          TEXT    NOT NULL CHECK (length(kind) BETWEEN 1 AND 32),
    payload_json  TEXT    NOT NULL DEFAULT '{}',
    due_at        REAL    NOT NULL,
    created_at    REAL    NOT NULL,
    attempts      INTEGER NOT NULL DEFAULT 0,
    claimed_by    TEXT,
    claimed_until REAL,
    last_error    TEXT,
    UNIQUE (game_id, version, kind)
);
CREATE INDEX effects_due ON effects (due_at, id);
