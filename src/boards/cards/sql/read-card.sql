-- What the card statements (move-card.sql, update-card.sql) begin with: the card as read with the
-- caller's reach and role, and the refusal of a role that may not write. Refusals are JSON objects
-- {"error": …} with everything the caller needs to word them: see card-refusal.ts.

-- The card as read before any lock, the caller's role on its board, or why it is out of reach.
CREATE OR REPLACE FUNCTION tb_read_card(p_card int, p_user int, p_board_ids int[], OUT card "Card", OUT role text, OUT refusal json)
LANGUAGE plpgsql STABLE AS $$
BEGIN
  SELECT c.* INTO card FROM "Card" c WHERE c.id = p_card;
  IF FOUND THEN role := tb_board_role(card."boardId", p_user, p_board_ids); END IF;
  IF role IS NULL THEN refusal := json_build_object('error', 'not_found', 'what', 'card'); END IF;
END $$;

-- A refusal for a role that does not allow the write (p_roles: the roles policy.ts allows it).
-- STABLE, not IMMUTABLE, so that it is inlined where it is called (json_build_object is STABLE).
CREATE OR REPLACE FUNCTION tb_role_refusal(p_role text, p_roles text[], p_action text) RETURNS json
LANGUAGE sql STABLE AS $$
  SELECT CASE WHEN p_role = ANY (p_roles) THEN NULL ELSE json_build_object('error', 'forbidden', 'role', p_role, 'action', p_action) END
$$;
