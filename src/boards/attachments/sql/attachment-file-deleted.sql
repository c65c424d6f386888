-- Attachment rows go with their card or board (cascades); their files are removed after the
-- commit by the attachment store (attachment-store.ts), which finds them in "DeletedFile" (also
-- after a crash between the commit and the removal). This file is the trigger's one text: the
-- migration that first made it (20261121084626_…) is history, and this replaces it on every start.
CREATE OR REPLACE FUNCTION attachment_file_deleted() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  -- A link attachment (url, no storageKey) has no file to remove.
  IF OLD."storageKey" IS NOT NULL THEN
    INSERT INTO "DeletedFile" ("storageKey") VALUES (OLD."storageKey") ON CONFLICT DO NOTHING;
  END IF;
  RETURN NULL;
END $$;

CREATE OR REPLACE TRIGGER attachment_file_deleted AFTER DELETE ON "Attachment"
FOR EACH ROW EXECUTE FUNCTION attachment_file_deleted();
