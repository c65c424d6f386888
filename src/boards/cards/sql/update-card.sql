-- A card edit in one statement, as move-card.sql is a move (update-card.ts calls it): reach and
-- role, the card's list locked, then the card, the version check, archiving (closing the gap) or
-- restoring, the update, the activity (card.archived or card.updated) and the full card. A card
-- is restored at its stored position in its list, clamped to the list's length; when that list is
-- archived, at the end of the board's first open list (the activity's `restoredFrom` says so). NULL leaves a field as it is; p_set_due says whether p_due (NULL: no due
-- date) is to be written. Shared parts: read-card.sql, boards/sql/ (lock-card,
-- target-position, shift-positions), activity/sql/record-activities.sql; refusals: card-refusal.ts.
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
  v_source_ok boolean;
  v_list_archived boolean;
  v_target int := (v_read.card)."listId";
  v_target_ok boolean;
  v_locked int;
  v_restoring boolean;
  v_archiving boolean;
  v_pos int;
  v_end int;
  v_now timestamptz;
  v_full text;
BEGIN
  IF v_refusal IS NOT NULL THEN RETURN v_refusal; END IF;
  IF NOT p_in_tx AND tb_hooked(ARRAY[(v_read.card)."boardId"]) THEN RETURN json_build_object('error', 'hooked'); END IF;

  -- Restoring into an archived list: the board's first open list instead (none: refused).
  v_restoring := p_archived IS FALSE AND (v_read.card).archived;
  IF v_restoring AND (SELECT l.archived FROM "List" l WHERE l.id = (v_read.card)."listId") THEN
    SELECT l.id INTO v_target FROM "List" l WHERE l."boardId" = (v_read.card)."boardId" AND NOT l.archived ORDER BY l.position, l.id LIMIT 1;
    IF v_target IS NULL THEN RETURN json_build_object('error', 'list_archived_restore'); END IF;
  END IF;

  -- The lock protocol: the lists in id order, then the card; anything that moved meanwhile is read again.
  SELECT count(*)::int, bool_or(l.id = (v_read.card)."listId" AND l."boardId" = (v_read.card)."boardId"),
         bool_or(l.id = (v_read.card)."listId" AND l.archived), bool_or(l.id = v_target AND l."boardId" = (v_read.card)."boardId" AND NOT l.archived)
    INTO v_locked, v_source_ok, v_list_archived, v_target_ok
    FROM tb_lock_lists(ARRAY[(v_read.card)."listId", v_target]) l;
  IF v_locked < (CASE WHEN v_target = (v_read.card)."listId" THEN 1 ELSE 2 END) THEN RETURN json_build_object('error', 'not_found', 'what', 'list'); END IF;
  IF NOT v_source_ok THEN RETURN json_build_object('error', 'retry'); END IF;
  -- Restoring: the list chosen above must still be the right one (its list archived or restored meanwhile: read again).
  IF v_restoring AND (v_list_archived <> (v_target <> (v_read.card)."listId") OR NOT v_target_ok) THEN RETURN json_build_object('error', 'retry'); END IF;
  v_lock := tb_lock_card(p_card, (v_read.card)."boardId", (v_read.card)."listId", p_expected);
  IF v_lock.refusal IS NOT NULL THEN RETURN v_lock.refusal; END IF;
  -- The time of the change is when its locks were held, not when the statement began waiting for them.
  v_now := clock_timestamp();

  v_pos := (v_lock.card).position;
  v_archiving := p_archived IS TRUE AND NOT (v_lock.card).archived;
  IF v_archiving THEN
    PERFORM tb_shift_cards((v_lock.card)."listId", v_pos, NULL);
  END IF;
  v_restoring := p_archived IS FALSE AND (v_lock.card).archived;
  IF v_restoring AND v_target = (v_lock.card)."listId" AND v_list_archived THEN RETURN json_build_object('error', 'retry'); END IF;
  IF v_restoring THEN
    -- Its stored position (kept while archived), clamped to the list's end; another list: its end
    -- (the end: target-position.sql's, no position requested).
    v_end := (tb_card_slot(v_target, NULL)).pos;
    v_pos := CASE WHEN v_target = (v_lock.card)."listId" THEN least(greatest(v_pos, 0), v_end) ELSE v_end END;
    PERFORM tb_shift_cards(v_target, NULL, v_pos);
  ELSE
    v_target := (v_lock.card)."listId";
  END IF;
  UPDATE "Card" SET
    title = coalesce(p_title, title),
    description = coalesce(p_description, description),
    "dueAt" = CASE WHEN p_set_due THEN p_due ELSE "dueAt" END,
    archived = coalesce(p_archived, archived),
    "listId" = v_target,
    position = v_pos,
    version = version + 1,
    "updatedAt" = v_now
  WHERE id = p_card;

  EXECUTE p_card_sql INTO v_full USING p_card;
  RETURN json_build_object('card', v_full::json, 'activities', tb_record_activities(
    ARRAY[(v_lock.card)."boardId"], CASE WHEN v_archiving THEN 'card.archived' ELSE 'card.updated' END,
    tb_card_data(p_card, v_target, v_full)
      || CASE WHEN v_target <> (v_lock.card)."listId" THEN jsonb_build_object('restoredFrom', (v_lock.card)."listId") ELSE '{}'::jsonb END,
    p_actor, v_now, p_notify, p_in_tx));
END $$;
