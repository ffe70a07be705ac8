-- 0004: turn alerts by DM, a player's opt-in (/settings me): 'dm' = on; 'failed' = was on until a DM could not be
-- delivered (closed DMs; the player is told once, then it reads as off); NULL = off (the default).
ALTER TABLE user_prefs ADD COLUMN alerts TEXT;
