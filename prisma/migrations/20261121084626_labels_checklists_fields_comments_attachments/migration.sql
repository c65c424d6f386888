-- CreateEnum
CREATE TYPE "LabelColor" AS ENUM ('green', 'yellow', 'orange', 'red', 'purple', 'blue', 'sky', 'lime', 'pink', 'black');

-- CreateEnum
CREATE TYPE "CustomFieldType" AS ENUM ('text', 'number', 'date', 'checkbox', 'list');

-- AlterTable
ALTER TABLE "Card" ADD COLUMN     "search" tsvector;

-- CreateTable
CREATE TABLE "Label" (
    "id" SERIAL NOT NULL,
    "boardId" INTEGER NOT NULL,
    "name" VARCHAR(100) NOT NULL,
    "color" "LabelColor",
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "Label_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "CardLabel" (
    "cardId" INTEGER NOT NULL,
    "labelId" INTEGER NOT NULL,

    CONSTRAINT "CardLabel_pkey" PRIMARY KEY ("cardId","labelId")
);

-- CreateTable
CREATE TABLE "CardAssignee" (
    "cardId" INTEGER NOT NULL,
    "userId" INTEGER NOT NULL,
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "CardAssignee_pkey" PRIMARY KEY ("cardId","userId")
);

-- CreateTable
CREATE TABLE "CustomField" (
    "id" SERIAL NOT NULL,
    "boardId" INTEGER NOT NULL,
    "name" VARCHAR(100) NOT NULL,
    "type" "CustomFieldType" NOT NULL,
    "options" TEXT[],
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "CustomField_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "CardFieldValue" (
    "cardId" INTEGER NOT NULL,
    "fieldId" INTEGER NOT NULL,
    "value" JSONB NOT NULL,

    CONSTRAINT "CardFieldValue_pkey" PRIMARY KEY ("cardId","fieldId")
);

-- CreateTable
CREATE TABLE "Checklist" (
    "id" SERIAL NOT NULL,
    "cardId" INTEGER NOT NULL,
    "name" VARCHAR(100) NOT NULL,
    "position" INTEGER NOT NULL,
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "Checklist_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "ChecklistItem" (
    "id" SERIAL NOT NULL,
    "checklistId" INTEGER NOT NULL,
    "name" VARCHAR(512) NOT NULL,
    "checked" BOOLEAN NOT NULL DEFAULT false,
    "position" INTEGER NOT NULL,
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "ChecklistItem_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "Comment" (
    "id" SERIAL NOT NULL,
    "cardId" INTEGER NOT NULL,
    "authorId" INTEGER NOT NULL,
    "authorName" TEXT NOT NULL,
    "text" TEXT NOT NULL,
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "Comment_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "Attachment" (
    "id" SERIAL NOT NULL,
    "cardId" INTEGER NOT NULL,
    "filename" VARCHAR(255) NOT NULL,
    "mimeType" VARCHAR(127) NOT NULL,
    "size" INTEGER NOT NULL,
    "storageKey" VARCHAR(200) NOT NULL,
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "Attachment_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "DeletedFile" (
    "storageKey" VARCHAR(200) NOT NULL,
    "deletedAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "DeletedFile_pkey" PRIMARY KEY ("storageKey")
);

-- CreateIndex
CREATE INDEX "Label_boardId_idx" ON "Label"("boardId");

-- CreateIndex
CREATE INDEX "CardLabel_labelId_idx" ON "CardLabel"("labelId");

-- CreateIndex
CREATE INDEX "CardAssignee_userId_idx" ON "CardAssignee"("userId");

-- CreateIndex
CREATE INDEX "CustomField_boardId_idx" ON "CustomField"("boardId");

-- CreateIndex
CREATE INDEX "CardFieldValue_fieldId_idx" ON "CardFieldValue"("fieldId");

-- CreateIndex
CREATE INDEX "Checklist_cardId_position_idx" ON "Checklist"("cardId", "position");

-- CreateIndex
CREATE INDEX "ChecklistItem_checklistId_position_idx" ON "ChecklistItem"("checklistId", "position");

-- CreateIndex
CREATE INDEX "Comment_cardId_id_idx" ON "Comment"("cardId", "id");

-- CreateIndex
CREATE UNIQUE INDEX "Attachment_storageKey_key" ON "Attachment"("storageKey");

-- CreateIndex
CREATE INDEX "Attachment_cardId_idx" ON "Attachment"("cardId");

-- CreateIndex
CREATE INDEX "Card_search_idx" ON "Card" USING GIN ("search");

-- AddForeignKey
ALTER TABLE "Label" ADD CONSTRAINT "Label_boardId_fkey" FOREIGN KEY ("boardId") REFERENCES "Board"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "CardLabel" ADD CONSTRAINT "CardLabel_cardId_fkey" FOREIGN KEY ("cardId") REFERENCES "Card"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "CardLabel" ADD CONSTRAINT "CardLabel_labelId_fkey" FOREIGN KEY ("labelId") REFERENCES "Label"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "CardAssignee" ADD CONSTRAINT "CardAssignee_cardId_fkey" FOREIGN KEY ("cardId") REFERENCES "Card"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "CardAssignee" ADD CONSTRAINT "CardAssignee_userId_fkey" FOREIGN KEY ("userId") REFERENCES "User"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "CustomField" ADD CONSTRAINT "CustomField_boardId_fkey" FOREIGN KEY ("boardId") REFERENCES "Board"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "CardFieldValue" ADD CONSTRAINT "CardFieldValue_cardId_fkey" FOREIGN KEY ("cardId") REFERENCES "Card"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "CardFieldValue" ADD CONSTRAINT "CardFieldValue_fieldId_fkey" FOREIGN KEY ("fieldId") REFERENCES "CustomField"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Checklist" ADD CONSTRAINT "Checklist_cardId_fkey" FOREIGN KEY ("cardId") REFERENCES "Card"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "ChecklistItem" ADD CONSTRAINT "ChecklistItem_checklistId_fkey" FOREIGN KEY ("checklistId") REFERENCES "Checklist"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Comment" ADD CONSTRAINT "Comment_cardId_fkey" FOREIGN KEY ("cardId") REFERENCES "Card"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Attachment" ADD CONSTRAINT "Attachment_cardId_fkey" FOREIGN KEY ("cardId") REFERENCES "Card"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- Written by hand (schema.prisma cannot express functions or triggers).

-- Full-text search: one weighted document per card, A title, B description, C checklist items,
-- D comments, so ts_rank puts a title match above a comment match. Kept current by triggers on
-- every table that feeds it; the GIN index above serves websearch_to_tsquery. A tsvector holds at
-- most 1 MiB: items and comments are indexed up to 50,000 and 100,000 characters (the first
-- items, the newest comments), so no amount of text on a card can make a change fail.
CREATE FUNCTION card_search_document(card_id INTEGER, title TEXT, description TEXT) RETURNS tsvector
LANGUAGE sql STABLE AS $$
  SELECT setweight(to_tsvector('english', title), 'A')
      || setweight(to_tsvector('english', description), 'B')
      || setweight(to_tsvector('english', left(coalesce((
           SELECT string_agg(i.name, ' ' ORDER BY l.position, i.position) FROM "ChecklistItem" i JOIN "Checklist" l ON l.id = i."checklistId"
           WHERE l."cardId" = card_id), ''), 50000)), 'C')
      || setweight(to_tsvector('english', left(coalesce((
           SELECT string_agg(m.text, ' ' ORDER BY m.id DESC) FROM "Comment" m WHERE m."cardId" = card_id), ''), 100000)), 'D')
$$;

CREATE FUNCTION card_search_on_card() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  NEW.search := card_search_document(NEW.id, NEW.title, NEW.description);
  RETURN NEW;
END $$;

CREATE TRIGGER card_search BEFORE INSERT OR UPDATE OF title, description ON "Card"
FOR EACH ROW EXECUTE FUNCTION card_search_on_card();

CREATE FUNCTION card_search_refresh(card_id INTEGER) RETURNS void LANGUAGE sql AS $$
  UPDATE "Card" SET search = card_search_document(id, title, description) WHERE id = card_id
$$;

CREATE FUNCTION card_search_on_comment() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM card_search_refresh(CASE WHEN TG_OP = 'DELETE' THEN OLD."cardId" ELSE NEW."cardId" END);
  RETURN NULL;
END $$;

CREATE TRIGGER card_search AFTER INSERT OR DELETE OR UPDATE OF text ON "Comment"
FOR EACH ROW EXECUTE FUNCTION card_search_on_comment();

CREATE FUNCTION card_search_on_item() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM card_search_refresh((SELECT "cardId" FROM "Checklist"
    WHERE id = CASE WHEN TG_OP = 'DELETE' THEN OLD."checklistId" ELSE NEW."checklistId" END));
  RETURN NULL;
END $$;

CREATE TRIGGER card_search AFTER INSERT OR DELETE OR UPDATE OF name ON "ChecklistItem"
FOR EACH ROW EXECUTE FUNCTION card_search_on_item();

-- A deleted checklist takes its items with it (cascade): by then their trigger cannot find the
-- card through the checklist, so the checklist's own deletion refreshes the card.
CREATE FUNCTION card_search_on_checklist() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM card_search_refresh(OLD."cardId");
  RETURN NULL;
END $$;

CREATE TRIGGER card_search AFTER DELETE ON "Checklist"
FOR EACH ROW EXECUTE FUNCTION card_search_on_checklist();

-- Attachment rows go with their card or board (cascades); their files are removed after the
-- commit by the attachment store, which finds them here (also after a crash).
CREATE FUNCTION attachment_file_deleted() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO "DeletedFile" ("storageKey") VALUES (OLD."storageKey") ON CONFLICT DO NOTHING;
  RETURN NULL;
END $$;

CREATE TRIGGER attachment_file_deleted AFTER DELETE ON "Attachment"
FOR EACH ROW EXECUTE FUNCTION attachment_file_deleted();
