-- A card edit in one statement, as move-card.sql is a move (update-card.ts calls it): reach and
-- role, the card's list locked, then the card, the version check, archiving (closing the gap) or
-- restoring (at the end of its list), the update, the activity (card.archived or card.updated)
-- and the full card. NULL leaves a field as it is; p_set_due says whether p_due (NULL: no due
-- date) is to be written. Shared parts: card-statement.sql; refusals: card-refusal.ts.
DROP FUNCTION IF EXISTS tb_update_card(int, int, int, int[], text[], int, int, text, text, text, text, boolean, timestamptz, boolean, text, boolean);
CREATE OR REPLACE FUNCTION tb_update_card(
  p_card int, p_expected int,
  p_user int, p_board_ids int[], p_roles text[], p_actor jsonb,
  p_title text, p_description text, p_set_due boolean, p_due timestamptz, p_archived boolean,
  p_card_sql text, p_notify text[], p_in_tx boolean
) RETURNS json LANGUAGE plpgsql AS $$
DECLARE
  v_read record := tb_read_card(p_card, p_user, p_board_ids);
  v_refusal json := coalesce(v_read.refusal, tb_role_refusal(v_read.role, p_roles, 'card.write'));
  v_lock record;
  v_list_board int;
  v_list_archived boolean;
  v_archiving boolean;
  v_pos int;
  v_now timestamptz;
  v_full text;
BEGIN
  IF v_refusal IS NOT NULL THEN RETURN v_refusal; END IF;
  IF NOT p_in_tx AND tb_hooked(ARRAY[(v_read.card)."boardId"]) THEN RETURN json_build_object('error', 'hooked'); END IF;

  -- The lock protocol: the list, then the card; anything that moved meanwhile is read again.
  SELECT l."boardId", l.archived INTO v_list_board, v_list_archived FROM "List" l WHERE l.id = (v_read.card)."listId" FOR NO KEY UPDATE;
  IF NOT FOUND THEN RETURN json_build_object('error', 'not_found', 'what', 'list'); END IF;
  IF v_list_board <> (v_read.card)."boardId" THEN RETURN json_build_object('error', 'retry'); END IF;
  v_lock := tb_lock_card(v_read.card, p_expected);
  IF v_lock.refusal IS NOT NULL THEN RETURN v_lock.refusal; END IF;
  -- The time of the change is when its locks were held, not when the statement began waiting for them.
  v_now := clock_timestamp();

  v_pos := (v_lock.card).position;
  v_archiving := p_archived IS TRUE AND NOT (v_lock.card).archived;
  IF v_archiving THEN
    UPDATE "Card" SET position = position - 1 WHERE "listId" = (v_lock.card)."listId" AND NOT archived AND position > v_pos;
  END IF;
  IF p_archived IS FALSE AND (v_lock.card).archived THEN
    IF v_list_archived THEN RETURN json_build_object('error', 'list_archived_restore'); END IF;
    SELECT count(*)::int INTO v_pos FROM "Card" c WHERE c."listId" = (v_lock.card)."listId" AND NOT c.archived;
  END IF;
  UPDATE "Card" SET
    title = coalesce(p_title, title),
    description = coalesce(p_description, description),
    "dueAt" = CASE WHEN p_set_due THEN p_due ELSE "dueAt" END,
    archived = coalesce(p_archived, archived),
    position = v_pos,
    version = version + 1,
    "updatedAt" = v_now
  WHERE id = p_card;

  EXECUTE p_card_sql INTO v_full USING p_card;
  RETURN json_build_object('card', v_full::json, 'activities', tb_record_activities(
    ARRAY[(v_lock.card)."boardId"], CASE WHEN v_archiving THEN 'card.archived' ELSE 'card.updated' END,
    tb_card_data(p_card, (v_lock.card)."listId", v_full), p_actor, v_now, p_notify, p_in_tx));
END $$;
