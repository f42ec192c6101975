-- Recall bumps recall_count and last_recalled_at, which no index covers. A memory row with a
-- 384-dimension vector stored inline takes about 1.75 kB, so 25% free space per page holds one more
-- version: PostgreSQL then updates those rows in place (HOT) instead of inserting into every index,
-- HNSW included (~4 ms for 10 rows otherwise).
ALTER TABLE "persona_memory"."memories" SET (fillfactor = 75);
