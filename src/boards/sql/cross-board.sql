-- The cross-board refusal, written once: something moved or copied from board p_from to board
-- p_to by an actor that may not cross boards (p_may_cross: policy.ts mayCrossBoards — a key
-- limited to chosen boards never may) is refused, {"error": "cross_board"}; NULL lets it pass.
-- The card move's statement (cards/sql/move-card.sql) asks it under its locks; policy.ts
-- authorizeCrossBoard asks it for a card copy and a list move. card-refusal.ts words the refusal.
--
-- SQL, STABLE, so PostgreSQL inlines it where it is called: no plan or call of its own. (Not
-- IMMUTABLE: json_build_object is STABLE, and an IMMUTABLE function over it is not inlined.)
CREATE OR REPLACE FUNCTION tb_cross_board(p_from int, p_to int, p_may_cross boolean) RETURNS json
LANGUAGE sql STABLE AS $$
  SELECT CASE WHEN p_from <> p_to AND NOT p_may_cross THEN json_build_object('error', 'cross_board', 'from', p_from, 'to', p_to) END
$$;
