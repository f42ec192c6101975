-- Every deleted attachment row leaves its object key in storage.orphaned_objects, in the deleting
-- transaction: a row trigger fires for cascaded deletes too (customer, ecosystem), so no path can
-- drop a row and forget its bytes, and a delete that rolls back takes its record with it.
-- jobs/delete-orphaned-objects.ts deletes the objects from the store.
CREATE FUNCTION "storage"."record_orphaned_object"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO "storage"."orphaned_objects" ("object_key", "storage_kind", "attachment_created_at")
  VALUES (OLD."object_key", OLD."storage_kind", OLD."created_at")
  ON CONFLICT ("object_key") DO NOTHING;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER "attachments_record_orphaned_object" AFTER DELETE ON "storage"."attachments"
FOR EACH ROW EXECUTE FUNCTION "storage"."record_orphaned_object"();
