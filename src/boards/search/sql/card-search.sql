-- A card's search document (rank-cards.ts ranks cards by it): title (weight A), description (B),
-- checklist items (C) and comments (D), in the card's "search" column and its GIN index, kept
-- current by the triggers below, so a change is searchable as soon as it commits. This file is
-- their one text: the migration that first made them (20261121084626_…) is history, and this
-- replaces them on every start (CREATE OR REPLACE).
--
-- tsvector holds at most 1 MiB: items and comments are indexed up to 50,000 and 100,000
-- characters (the first items, the newest comments), so no amount of text on a card can make a
-- change fail.
CREATE OR REPLACE FUNCTION card_search_document(card_id INTEGER, title TEXT, description TEXT) RETURNS tsvector
LANGUAGE sql STABLE AS $$
  SELECT setweight(to_tsvector('english', title), 'A')
      || setweight(to_tsvector('english', description), 'B')
      || setweight(to_tsvector('english', left(coalesce((
           SELECT string_agg(i.name, ' ' ORDER BY l.position, i.position) FROM "ChecklistItem" i JOIN "Checklist" l ON l.id = i."checklistId"
           WHERE l."cardId" = card_id), ''), 50000)), 'C')
      || setweight(to_tsvector('english', left(coalesce((
           SELECT string_agg(m.text, ' ' ORDER BY m.id DESC) FROM "Comment" m WHERE m."cardId" = card_id), ''), 100000)), 'D')
$$;

-- The cards' documents written again from their rows: the triggers below (one card) and a board
-- import before it commits (transfer/write-board-file.ts: all its cards, in chunks).
DROP FUNCTION IF EXISTS card_search_refresh(INTEGER);
CREATE OR REPLACE FUNCTION card_search_refresh(card_ids INTEGER[]) RETURNS void LANGUAGE sql AS $$
  UPDATE "Card" SET search = card_search_document(id, title, description) WHERE id = ANY (card_ids)
$$;

-- A board import (transfer/write-board-file.ts) writes thousands of cards, comments and checklist
-- items in one transaction; refreshing a card's document after each such row rewrote the card and
-- its GIN entry once per row (14,000 rewrites for a 2,000-card import). While the
-- transaction-local setting tb.bulk_search is 'on' (set only by the import, with
-- set_config(…, true)), the triggers skip the refresh of new rows; the import refreshes each of
-- its cards once (card_search_refresh, a chunk of cards a statement) before it commits.
CREATE OR REPLACE FUNCTION card_search_on_card() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' AND current_setting('tb.bulk_search', true) = 'on' THEN RETURN NEW; END IF;
  NEW.search := card_search_document(NEW.id, NEW.title, NEW.description);
  RETURN NEW;
END $$;

CREATE OR REPLACE TRIGGER card_search BEFORE INSERT OR UPDATE OF title, description ON "Card"
FOR EACH ROW EXECUTE FUNCTION card_search_on_card();

CREATE OR REPLACE FUNCTION card_search_on_comment() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF current_setting('tb.bulk_search', true) = 'on' THEN RETURN NULL; END IF;
  PERFORM card_search_refresh(ARRAY[CASE WHEN TG_OP = 'DELETE' THEN OLD."cardId" ELSE NEW."cardId" END]);
  RETURN NULL;
END $$;

CREATE OR REPLACE TRIGGER card_search AFTER INSERT OR DELETE OR UPDATE OF text ON "Comment"
FOR EACH ROW EXECUTE FUNCTION card_search_on_comment();

CREATE OR REPLACE FUNCTION card_search_on_item() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF current_setting('tb.bulk_search', true) = 'on' THEN RETURN NULL; END IF;
  PERFORM card_search_refresh(ARRAY[(SELECT "cardId" FROM "Checklist"
    WHERE id = CASE WHEN TG_OP = 'DELETE' THEN OLD."checklistId" ELSE NEW."checklistId" END)]);
  RETURN NULL;
END $$;

CREATE OR REPLACE TRIGGER card_search AFTER INSERT OR DELETE OR UPDATE OF name ON "ChecklistItem"
FOR EACH ROW EXECUTE FUNCTION card_search_on_item();

-- A deleted checklist takes its items with it (cascade): by then their trigger cannot find the
-- card through the checklist, so the checklist's own deletion refreshes the card.
CREATE OR REPLACE FUNCTION card_search_on_checklist() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM card_search_refresh(ARRAY[OLD."cardId"]);
  RETURN NULL;
END $$;

CREATE OR REPLACE TRIGGER card_search AFTER DELETE ON "Checklist"
FOR EACH ROW EXECUTE FUNCTION card_search_on_checklist();
