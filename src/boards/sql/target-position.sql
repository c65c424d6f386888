-- The position a row takes among its parent's open rows, written once: a requested position 0..n
-- (n: the open rows, not counting the row itself when it moves), or the end, n, when none is
-- requested; anything else is the client's mistake (pos NULL; the caller answers a 400 worded by
-- target-position.ts, positionRefusal). The card move's statement (cards/sql/move-card.sql) calls
-- these; so do the TypeScript writes (target-position.ts: create, copy and move cards and lists,
-- items, checklists; a restored list's end; the imports' ends of lists, read in one statement for
-- all their lists). A restored card's clamp to its list's length (cards/sql/update-card.sql) is
-- another rule, a stored position never refused, on this end.
-- The caller has locked the parent first (lock-lists.ts, lock-boards.ts, lock-card.ts), so n holds
-- until it writes. The siblings' shift that follows is shift-positions.sql's.
--
-- The counts are PL/pgSQL, not SQL, for the reason board-role.sql gives: a card move calls them on
-- its hot path. The rule itself is SQL, inlined into their expressions.

-- The rule: n open rows and a requested position (NULL: the end) → the position, NULL when outside 0..n.
CREATE OR REPLACE FUNCTION tb_slot(p_requested int, p_n int) RETURNS int
LANGUAGE sql IMMUTABLE AS $$
  SELECT CASE WHEN p_requested IS NULL THEN p_n WHEN p_requested BETWEEN 0 AND p_n THEN p_requested END
$$;

-- Among a list's non-archived cards, not counting p_except (NULL: none).
CREATE OR REPLACE FUNCTION tb_card_slot(p_list int, p_requested int, p_except int DEFAULT NULL, OUT pos int, OUT n int)
LANGUAGE plpgsql AS $$
BEGIN
  n := (SELECT count(*)::int FROM "Card" c WHERE c."listId" = p_list AND NOT c.archived AND c.id IS DISTINCT FROM p_except);
  pos := tb_slot(p_requested, n);
END $$;

-- Among a board's non-archived lists, not counting p_except (NULL: none).
CREATE OR REPLACE FUNCTION tb_list_slot(p_board int, p_requested int, p_except int DEFAULT NULL, OUT pos int, OUT n int)
LANGUAGE plpgsql AS $$
BEGIN
  n := (SELECT count(*)::int FROM "List" l WHERE l."boardId" = p_board AND NOT l.archived AND l.id IS DISTINCT FROM p_except);
  pos := tb_slot(p_requested, n);
END $$;

-- Among a card's checklists (a checklist is never archived).
CREATE OR REPLACE FUNCTION tb_checklist_slot(p_card int, p_requested int, p_except int DEFAULT NULL, OUT pos int, OUT n int)
LANGUAGE plpgsql AS $$
BEGIN
  n := (SELECT count(*)::int FROM "Checklist" k WHERE k."cardId" = p_card AND k.id IS DISTINCT FROM p_except);
  pos := tb_slot(p_requested, n);
END $$;

-- Among a checklist's items (an item is never archived).
CREATE OR REPLACE FUNCTION tb_item_slot(p_checklist int, p_requested int, p_except int DEFAULT NULL, OUT pos int, OUT n int)
LANGUAGE plpgsql AS $$
BEGIN
  n := (SELECT count(*)::int FROM "ChecklistItem" i WHERE i."checklistId" = p_checklist AND i.id IS DISTINCT FROM p_except);
  pos := tb_slot(p_requested, n);
END $$;
