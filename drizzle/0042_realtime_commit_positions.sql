-- Each transaction that writes realtime changes takes its place in commit order as it commits: a
-- deferred constraint trigger (it fires during COMMIT, after every statement) takes a shared advisory
-- lock, held until the commit has ended, and then the next number of realtime.commit_pos. A number
-- missing below a visible one is therefore either still committing (its lock is held: the reader
-- takes the lock exclusively to wait for it, which waits only for commits under way) or gone for
-- good (rolled back). A transaction left open elsewhere takes no number until it commits, so it
-- delays no one; numbers follow commit order, so a reader never passes a change that commits later.
CREATE SEQUENCE "realtime"."commit_pos";
--> statement-breakpoint
CREATE FUNCTION "realtime"."take_position"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NOT EXISTS (SELECT 1 FROM "realtime"."commits" WHERE "tx" = pg_current_xact_id()) THEN
    PERFORM pg_advisory_xact_lock_shared(hashtext('ecobase:realtime-commit'));
    INSERT INTO "realtime"."commits" ("tx", "pos") VALUES (pg_current_xact_id(), nextval('"realtime"."commit_pos"'));
  END IF;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE CONSTRAINT TRIGGER "changes_take_position" AFTER INSERT ON "realtime"."changes"
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION "realtime"."take_position"();
--> statement-breakpoint
-- Changes already stored keep their order: their transactions are numbered as they were read before.
INSERT INTO "realtime"."commits" ("tx", "pos")
  SELECT "tx", nextval('"realtime"."commit_pos"') FROM (SELECT DISTINCT "tx" FROM "realtime"."changes" ORDER BY "tx") AS stored;
--> statement-breakpoint
INSERT INTO "realtime"."epoch" ("id", "value") VALUES (1, substr(md5(random()::text || clock_timestamp()::text), 1, 8));
