-- The card lock and the version check, written once: lock-card.ts calls it for the writes in
-- TypeScript (a card's parts, a deletion, an item converted), and the card statements
-- (cards/sql/move-card.sql, update-card.sql) call it in their one statement. The lock order
-- (lists, then the card) is lock-lists.ts's: the caller has locked the lists.
--
-- The card locked, checked against where it was read and authorised, on board p_board and in list
-- p_list (NULL: any list of the board; moved meanwhile: {"error": "retry"}), then against the
-- client's version p_expected (NULL: none). Refusals are worded by card-refusal.ts and lock-card.ts.
DROP FUNCTION IF EXISTS tb_lock_card("Card", int);
CREATE OR REPLACE FUNCTION tb_lock_card(p_card int, p_board int, p_list int, p_expected int, OUT card "Card", OUT refusal json)
LANGUAGE plpgsql AS $$
BEGIN
  SELECT c.* INTO card FROM "Card" c WHERE c.id = p_card FOR NO KEY UPDATE;
  IF NOT FOUND THEN
    refusal := json_build_object('error', 'not_found', 'what', 'card');
  ELSIF card."boardId" <> p_board OR (p_list IS NOT NULL AND card."listId" <> p_list) THEN
    refusal := json_build_object('error', 'retry');
  ELSIF p_expected IS NOT NULL AND p_expected <> card.version THEN
    refusal := json_build_object('error', 'version', 'expected', p_expected, 'version', card.version);
  END IF;
END $$;
