-- AlterTable
ALTER TABLE "Attachment" ADD COLUMN     "url" VARCHAR(4096),
ALTER COLUMN "storageKey" DROP NOT NULL;

-- A file or a link, never both nor neither.
ALTER TABLE "Attachment" ADD CONSTRAINT "Attachment_file_or_link" CHECK (("storageKey" IS NULL) <> ("url" IS NULL));

-- A link has no file to remove: attachment_file_deleted (src/boards/attachments/sql/attachment-file-deleted.sql,
-- applied after the migrations) skips it.
