-- Moving a card shifts the positions of the cards after it in both lists. With "position" in an
-- index, each shifted card got a new row version in every index of "Card" (its GIN search index
-- too) and left a dead one behind: under steady moves a 1,200-card table held 300,000 dead rows
-- and a move's database work doubled within a minute. Without it, a shift changes no indexed
-- column and PostgreSQL updates the row in place on its page (a HOT update), for which the pages
-- keep a fifth of their space free. Every reader orders cards by position itself. The cost: a move
-- to the end of a very long list (an import allows 20,000 cards in one) now reads every card of the
-- list instead of the few after it, where a move elsewhere updates up to all of them anyway.
-- On an existing installation the index is rebuilt while "Card" is locked, and only pages written
-- from now on keep the free fifth (VACUUM FULL "Card" rewrites the others at once).

-- DropIndex
DROP INDEX "Card_listId_archived_position_idx";

-- CreateIndex
CREATE INDEX "Card_listId_archived_idx" ON "Card"("listId", "archived");

ALTER TABLE "Card" SET (fillfactor = 80);
