-- Realtime positions become places in commit order (0041, 0042): the purge horizon kept as a
-- transaction id means nothing in them. Cursors of the old form reset (unknown_cursor) anyway.
DELETE FROM "realtime"."purged";
