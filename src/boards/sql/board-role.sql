-- Reach and role on a board, written once: the caller's role on board p_board, or NULL when the
-- board is out of its reach (not a member, or outside a limited key's boards p_board_ids; NULL
-- p_board_ids: every board the user belongs to). access.ts asks it for every require…() and the
-- card statements (cards/sql/) ask it too, so what "reachable" means cannot drift between them.
CREATE OR REPLACE FUNCTION tb_board_role(p_board int, p_user int, p_board_ids int[]) RETURNS text
LANGUAGE sql STABLE AS $$
  SELECT m.role::text FROM "BoardMember" m
  WHERE m."boardId" = p_board AND m."userId" = p_user AND (p_board_ids IS NULL OR p_board = ANY (p_board_ids))
$$;
