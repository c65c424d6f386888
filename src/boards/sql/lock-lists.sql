-- The lists' lock, written once: lists p_ids locked in id order (the lock protocol, lock-lists.ts:
-- lists, then the card; within a level, id order), FOR NO KEY UPDATE (which does not conflict with
-- the KEY SHARE locks that foreign-key checks take when a card referencing the list is inserted).
-- lock-lists.ts calls it for the writes in TypeScript; the card statements (cards/sql/move-card.sql,
-- update-card.sql) call it in their one statement. A list that no longer exists is not returned;
-- a NULL or a repeated id among p_ids locks nothing more.
--
-- PL/pgSQL: a SQL function that locks cannot be inlined (it is VOLATILE), and PL/pgSQL keeps the
-- plan for the connection's life where a SQL function would be planned at every call.
CREATE OR REPLACE FUNCTION tb_lock_lists(p_ids int[]) RETURNS TABLE (id int, "boardId" int, archived boolean)
LANGUAGE plpgsql AS $$
BEGIN
  RETURN QUERY SELECT l.id, l."boardId", l.archived FROM "List" l WHERE l.id = ANY (p_ids) ORDER BY l.id FOR NO KEY UPDATE OF l;
END $$;
