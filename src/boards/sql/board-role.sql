-- Reach and role, written once: tb_reachable_boards is the rule — the boards a user is a member of,
-- narrowed to a limited key's boards p_board_ids (NULL: every board the user belongs to), with the
-- role on each — and tb_board_role asks it for one board. access.ts asks them for every require…()
-- and for the board lists (GET /boards, search, assigned cards, the inbox, the mail digest); the
-- card statements (cards/sql/) and the board fetch (boards/board-snapshot.ts) ask tb_board_role,
-- so what "reachable" means cannot drift between them. TypeScript keeps only the key's half for
-- the board cache, which answers without a query (access.ts keyReaches); test/boards/reach-forms.test.ts
-- holds it equal to this.
--
-- A plain SQL function returning a set, so the planner inlines it into the statement that calls it
-- (not STRICT, not VOLATILE: the conditions for inlining): tb_board_role's lookup stays one index probe.
-- A NULL among the key's boards makes = ANY NULL for an unlisted board, which lets no row through.
CREATE OR REPLACE FUNCTION tb_reachable_boards(p_user int, p_board_ids int[]) RETURNS TABLE (board_id int, role text)
LANGUAGE sql STABLE AS $$
  SELECT m."boardId", m.role::text FROM "BoardMember" m
  WHERE m."userId" = p_user AND (p_board_ids IS NULL OR m."boardId" = ANY (p_board_ids))
$$;

-- The caller's role on board p_board, or NULL when the board is out of its reach.
-- PL/pgSQL, not SQL: a SQL function that cannot be inlined (one used as a scalar that reads a table)
-- is parsed and planned again by every statement that calls it, ~50 µs each time; PL/pgSQL keeps its
-- plan for the connection's life. A card move asks it twice.
CREATE OR REPLACE FUNCTION tb_board_role(p_board int, p_user int, p_board_ids int[]) RETURNS text
LANGUAGE plpgsql STABLE AS $$
BEGIN
  RETURN (SELECT r.role FROM tb_reachable_boards(p_user, p_board_ids) r WHERE r.board_id = p_board);
END $$;
