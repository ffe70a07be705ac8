-- 0007: a no-op placeholder on the tourney branch only (migration 0007 belongs to another branch; numbers must be
-- contiguous). Delete this file when the real 0007 is merged.
SELECT 1;
