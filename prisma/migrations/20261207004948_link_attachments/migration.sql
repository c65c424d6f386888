-- AlterTable
ALTER TABLE "Attachment" ADD COLUMN     "url" VARCHAR(4096),
ALTER COLUMN "storageKey" DROP NOT NULL;

-- A file or a link, never both nor neither.
ALTER TABLE "Attachment" ADD CONSTRAINT "Attachment_file_or_link" CHECK (("storageKey" IS NULL) <> ("url" IS NULL));

-- A link has no file to remove.
CREATE OR REPLACE FUNCTION attachment_file_deleted() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF OLD."storageKey" IS NOT NULL THEN
    INSERT INTO "DeletedFile" ("storageKey") VALUES (OLD."storageKey") ON CONFLICT DO NOTHING;
  END IF;
  RETURN NULL;
END $$;
