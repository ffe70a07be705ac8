-- 0005: the leaderboard's order (bot/storage/players.py ORDER, README "Ratings"): established players (5 or more
-- rated games, ratings.PROVISIONAL_GAMES) before provisional ones, then the rating (mu), then more rated games, then
-- who reached it first (older updated_at), then user id. An index on that very order keeps a page and a rank an
-- index range scan in a guild of thousands of players.
CREATE INDEX ratings_order ON ratings (
    guild_id, kind, (CASE WHEN games >= 5 THEN 1 ELSE 0 END) DESC, mu DESC, games DESC, updated_at, user_id
);
