-- A board import (transfer/write-board-file.ts) writes thousands of comments and checklist items
-- in one transaction. The search triggers of the migration that made them (card_search_*) refresh
-- a card's search document after every such row, rewriting the card and its GIN entry once per
-- row: 14,000 rewrites for a 2,000-card import. While the transaction-local setting
-- tb.bulk_search is 'on' (set only by the import, with set_config(…, true)), these two skip the
-- refresh; the import then refreshes each of its cards once, in one statement, before it commits.
-- Otherwise they are the migration's own definitions, unchanged.
CREATE OR REPLACE FUNCTION card_search_on_comment() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF current_setting('tb.bulk_search', true) = 'on' THEN RETURN NULL; END IF;
  PERFORM card_search_refresh(CASE WHEN TG_OP = 'DELETE' THEN OLD."cardId" ELSE NEW."cardId" END);
  RETURN NULL;
END $$;

CREATE OR REPLACE FUNCTION card_search_on_item() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF current_setting('tb.bulk_search', true) = 'on' THEN RETURN NULL; END IF;
  PERFORM card_search_refresh((SELECT "cardId" FROM "Checklist"
    WHERE id = CASE WHEN TG_OP = 'DELETE' THEN OLD."checklistId" ELSE NEW."checklistId" END));
  RETURN NULL;
END $$;

CREATE OR REPLACE FUNCTION card_search_on_card() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' AND current_setting('tb.bulk_search', true) = 'on' THEN RETURN NEW; END IF;
  NEW.search := card_search_document(NEW.id, NEW.title, NEW.description);
  RETURN NEW;
END $$;
