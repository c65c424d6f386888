-- Reach and role on a board, written once: the caller's role on board p_board, or NULL when the
-- board is out of its reach (not a member, or outside a limited key's boards p_board_ids; NULL
-- p_board_ids: every board the user belongs to). access.ts asks it for every require…() and the
-- card statements (cards/sql/) and the board fetch (boards/board-snapshot.ts) ask it too, so what
-- "reachable" means cannot drift between them. Its other text is TypeScript's, for what cannot call
-- it: access.ts's boardsVisibleTo (a Prisma where-clause: GET /boards, search, the inbox) and
-- keyReaches (the board cache); test/boards/reach-forms.test.ts holds them equal to this one.
--
-- PL/pgSQL, not SQL: a SQL function that cannot be inlined (this one reads a table) is parsed and
-- planned again by every statement that calls it, ~50 µs each time; PL/pgSQL keeps its plan for
-- the connection's life. A card move asks it twice.
CREATE OR REPLACE FUNCTION tb_board_role(p_board int, p_user int, p_board_ids int[]) RETURNS text
LANGUAGE plpgsql STABLE AS $$
BEGIN
  -- IS NOT TRUE: a NULL among the key's boards must not let an unlisted board through.
  IF p_board_ids IS NOT NULL AND (p_board = ANY (p_board_ids)) IS NOT TRUE THEN RETURN NULL; END IF;
  RETURN (SELECT m.role::text FROM "BoardMember" m WHERE m."boardId" = p_board AND m."userId" = p_user);
END $$;
