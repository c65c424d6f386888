-- Positions are 0..n-1 among a parent's open rows: a list's non-archived cards, a board's
-- non-archived lists, a card's checklists, a checklist's items. A write that adds, removes,
-- archives, restores or moves one shifts its siblings, here and nowhere else: the card statements
-- (cards/sql/move-card.sql, update-card.sql) and the TypeScript writes (shift-positions.ts) call
-- these. The caller has locked the parent first (lock-lists.ts, lock-boards.ts, lock-card.ts).
-- Where the row goes (a requested 0..n, or the end) is target-position.sql's.
--
-- Every shift is one row that leaves position p_left (NULL: it comes from elsewhere, or is new)
-- and takes position p_taken (NULL: it goes elsewhere, is archived or deleted). The siblings
-- between the two move one step toward the gap; the row itself is not shifted (it is at p_left,
-- outside the range, or not among the open rows).
--
-- PL/pgSQL, not SQL, for the reason board-role.sql gives: a card move calls them on its hot path.

-- The range [lo, hi] of positions that move, and by how much (empty when p_left = p_taken).
CREATE OR REPLACE FUNCTION tb_shift(p_left int, p_taken int, OUT lo int, OUT hi int, OUT step int)
LANGUAGE plpgsql IMMUTABLE AS $$
DECLARE
  l int := coalesce(p_left, 2147483647);
  t int := coalesce(p_taken, 2147483647);
BEGIN
  IF l < t THEN lo := l + 1; hi := t; step := -1;
  ELSE lo := t; hi := l - 1; step := 1;
  END IF;
END $$;

CREATE OR REPLACE FUNCTION tb_shift_cards(p_list int, p_left int, p_taken int) RETURNS void
LANGUAGE plpgsql AS $$
DECLARE s record := tb_shift(p_left, p_taken);
BEGIN
  UPDATE "Card" SET position = position + s.step WHERE "listId" = p_list AND NOT archived AND position BETWEEN s.lo AND s.hi;
END $$;

CREATE OR REPLACE FUNCTION tb_shift_lists(p_board int, p_left int, p_taken int) RETURNS void
LANGUAGE plpgsql AS $$
DECLARE s record := tb_shift(p_left, p_taken);
BEGIN
  UPDATE "List" SET position = position + s.step WHERE "boardId" = p_board AND NOT archived AND position BETWEEN s.lo AND s.hi;
END $$;

CREATE OR REPLACE FUNCTION tb_shift_checklists(p_card int, p_left int, p_taken int) RETURNS void
LANGUAGE plpgsql AS $$
DECLARE s record := tb_shift(p_left, p_taken);
BEGIN
  UPDATE "Checklist" SET position = position + s.step WHERE "cardId" = p_card AND position BETWEEN s.lo AND s.hi;
END $$;

CREATE OR REPLACE FUNCTION tb_shift_items(p_checklist int, p_left int, p_taken int) RETURNS void
LANGUAGE plpgsql AS $$
DECLARE s record := tb_shift(p_left, p_taken);
BEGIN
  UPDATE "ChecklistItem" SET position = position + s.step WHERE "checklistId" = p_checklist AND position BETWEEN s.lo AND s.hi;
END $$;
