-- 0002: PostgreSQL dialect of 0002_any_game.sqlite.sql (same columns, constraints, indexes and
-- back-fill; PostgreSQL alters the tables in place instead of rebuilding them).

ALTER TABLE games DROP CONSTRAINT games_kind_check;
ALTER TABLE games ADD CONSTRAINT games_kind_check CHECK (length(kind) BETWEEN 1 AND 32);
ALTER TABLE games ADD COLUMN wake_at DOUBLE PRECISION,
                  ADD COLUMN finished_at DOUBLE PRECISION,
                  ADD COLUMN end_reason TEXT;
UPDATE games SET finished_at = updated_at WHERE status IN ('finished', 'aborted');
UPDATE games SET end_reason = 'abort' WHERE status = 'aborted';
CREATE INDEX games_wake ON games (wake_at, id) WHERE status IN ('lobby', 'active') AND wake_at IS NOT NULL;

ALTER TABLE ratings DROP CONSTRAINT ratings_kind_check;
ALTER TABLE ratings ADD CONSTRAINT ratings_kind_check CHECK (length(kind) BETWEEN 1 AND 32);

CREATE TABLE game_outcomes (
    game_id  BIGINT  NOT NULL REFERENCES games (id),
    user_id  BIGINT  NOT NULL,
    guild_id BIGINT  NOT NULL,
    kind     TEXT    NOT NULL,
    place    INTEGER NOT NULL CHECK (place >= 1),
    outcome  TEXT    NOT NULL CHECK (outcome IN ('win', 'loss', 'draw')),
    rated    INTEGER NOT NULL CHECK (rated IN (0, 1)),
    vs_ai    INTEGER NOT NULL CHECK (vs_ai IN (0, 1)),
    PRIMARY KEY (game_id, user_id)
);
CREATE INDEX game_outcomes_by_player ON game_outcomes (guild_id, kind, user_id);

INSERT INTO game_outcomes (game_id, user_id, guild_id, kind, place, outcome, rated, vs_ai)
SELECT r.game_id, r.user_id, g.guild_id, g.kind,
       1 + (SELECT count(*) FROM rating_changes a WHERE a.game_id = r.game_id AND a.place < r.place),
       r.outcome, 1, 0
FROM rating_changes r JOIN games g ON g.id = r.game_id;

CREATE TABLE guild_settings (
    guild_id   BIGINT NOT NULL,
    key        TEXT   NOT NULL,
    value_json TEXT   NOT NULL,
    updated_at DOUBLE PRECISION NOT NULL,
    PRIMARY KEY (guild_id, key)
);
