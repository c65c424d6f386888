-- A card move in one statement (move-card.ts calls it): reach and role, the lock protocol (lists
-- in id order, then the card), the version check, the shifts, the update, the parts another board
-- cannot keep, the card.moved activities and the full card, as one round trip to the database.
-- The caller passes what only it knows: the roles that may write cards and whether the actor may
-- move a card to another board (policy.ts rolesAllowing, mayCrossBoards; the refusal is
-- boards/sql/cross-board.sql's), the key's boards, the
-- actor, the statement that reads the full card (`SELECT tb_full_card($1)`:
-- boards/json/sql/full-card.sql, written from boards/json/card-json.ts, the one place the card's
-- shape is written) and where to NOTIFY. Shared parts: read-card.sql, boards/sql/ (lock-card,
-- target-position, shift-positions, drop-other-boards-parts), activity/sql/record-activities.sql; refusals:
-- card-refusal.ts.
--
-- {"error": "retry"}: a list or the card moved between reading and locking; the caller runs the
-- statement again, in a new transaction, so that no lock is held out of the protocol's order while
-- it reads again. {"error": "hooked"}: a board has webhooks and p_in_tx is false.
DROP FUNCTION IF EXISTS tb_move_card(int, int, int, int, int, int[], text[], int, int, text, text, text, boolean);
DROP FUNCTION IF EXISTS tb_move_card(int, int, int, int, int, int[], text[], jsonb, text, text[], boolean);
CREATE OR REPLACE FUNCTION tb_move_card(
  p_card int, p_list int, p_position int, p_expected int,
  p_user int, p_board_ids int[], p_roles text[], p_cross_board boolean, p_actor jsonb,
  p_card_sql text, p_notify text[], p_in_tx boolean
) RETURNS json LANGUAGE plpgsql AS $$
DECLARE
  v_read record;
  v_lock record;
  v_list "List"%ROWTYPE;
  v_list_role text;
  v_locked int;
  v_source_ok boolean;
  v_target_ok boolean;
  v_target_archived boolean;
  v_slot record;
  v_pos int;
  v_full text;
  v_cross boolean;
  v_from jsonb;
  v_to jsonb;
  v_now timestamptz;
BEGIN
  v_read := tb_read_card(p_card, p_user, p_board_ids);
  IF v_read.refusal IS NOT NULL THEN RETURN v_read.refusal; END IF;
  SELECT l.* INTO v_list FROM "List" l WHERE l.id = p_list;
  IF FOUND THEN v_list_role := tb_board_role(v_list."boardId", p_user, p_board_ids); END IF;
  IF v_list_role IS NULL THEN RETURN json_build_object('error', 'not_found', 'what', 'list'); END IF;
  IF tb_role_refusal(v_read.role, p_roles, 'card.write') IS NOT NULL THEN RETURN tb_role_refusal(v_read.role, p_roles, 'card.write'); END IF;
  IF tb_cross_board((v_read.card)."boardId", v_list."boardId", p_cross_board) IS NOT NULL THEN
    RETURN tb_cross_board((v_read.card)."boardId", v_list."boardId", p_cross_board);
  END IF;
  IF tb_role_refusal(v_list_role, p_roles, 'card.write') IS NOT NULL THEN RETURN tb_role_refusal(v_list_role, p_roles, 'card.write'); END IF;
  IF NOT p_in_tx AND tb_hooked(ARRAY[(v_read.card)."boardId", v_list."boardId"]) THEN RETURN json_build_object('error', 'hooked'); END IF;

  -- The lock protocol: both lists in id order, then the card; anything that moved meanwhile is read again.
  SELECT count(*)::int, bool_or(l.id = (v_read.card)."listId" AND l."boardId" = (v_read.card)."boardId"),
         bool_or(l.id = p_list AND l."boardId" = v_list."boardId"), bool_or(l.id = p_list AND l.archived)
    INTO v_locked, v_source_ok, v_target_ok, v_target_archived
    FROM tb_lock_lists(ARRAY[(v_read.card)."listId", p_list]) l;
  IF v_locked < (CASE WHEN (v_read.card)."listId" = p_list THEN 1 ELSE 2 END) THEN
    RETURN json_build_object('error', 'not_found', 'what', 'list');
  END IF;
  IF NOT v_source_ok OR NOT v_target_ok THEN RETURN json_build_object('error', 'retry'); END IF;
  v_lock := tb_lock_card(p_card, (v_read.card)."boardId", (v_read.card)."listId", p_expected);
  IF v_lock.refusal IS NOT NULL THEN RETURN v_lock.refusal; END IF;
  -- The time of the change is when its locks were held, not when the statement began waiting for them.
  v_now := clock_timestamp();
  IF (v_lock.card).archived THEN RETURN json_build_object('error', 'card_archived'); END IF;
  IF v_target_archived THEN RETURN json_build_object('error', 'list_archived'); END IF;
  v_slot := tb_card_slot(p_list, p_position, p_card);
  IF v_slot.pos IS NULL THEN RETURN json_build_object('error', 'position', 'max', v_slot.n); END IF;
  v_pos := v_slot.pos;

  IF p_list = (v_lock.card)."listId" THEN
    IF v_pos = (v_lock.card).position THEN
      -- Where it already is: nothing is written and nothing recorded.
      EXECUTE p_card_sql INTO v_full USING p_card;
      RETURN json_build_object('card', v_full::json, 'activities', '[]'::json);
    END IF;
    PERFORM tb_shift_cards(p_list, (v_lock.card).position, v_pos);
  ELSE
    PERFORM tb_shift_cards((v_lock.card)."listId", (v_lock.card).position, NULL);
    PERFORM tb_shift_cards(p_list, NULL, v_pos);
  END IF;
  UPDATE "Card" SET "listId" = p_list, "boardId" = v_list."boardId", position = v_pos, version = version + 1, "updatedAt" = v_now
    WHERE id = p_card;

  v_cross := v_list."boardId" <> (v_lock.card)."boardId";
  IF v_cross THEN PERFORM tb_drop_other_boards_parts(ARRAY[p_card], v_list."boardId"); END IF;

  EXECUTE p_card_sql INTO v_full USING p_card;
  v_from := jsonb_build_object('listId', (v_lock.card)."listId", 'position', (v_lock.card).position);
  v_to := jsonb_build_object('listId', p_list, 'position', v_pos);
  IF v_cross THEN
    v_from := jsonb_build_object('boardId', (v_lock.card)."boardId") || v_from;
    v_to := jsonb_build_object('boardId', v_list."boardId") || v_to;
  END IF;
  RETURN json_build_object('card', v_full::json, 'activities', tb_record_activities(
    CASE WHEN v_cross THEN ARRAY[(v_lock.card)."boardId", v_list."boardId"] ELSE ARRAY[(v_lock.card)."boardId"] END,
    'card.moved', tb_card_data(p_card, p_list, v_full) || jsonb_build_object('from', v_from, 'to', v_to),
    p_actor, v_now, p_notify, p_in_tx));
END $$;
