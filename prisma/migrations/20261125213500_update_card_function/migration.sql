-- A card edit in one statement, as tb_move_card is a move: reach and role, the card's list locked,
-- then the card, the version check, archiving (closing the gap) or restoring (at the end of its
-- list), the update, the activity (card.archived or card.updated) and the full card. The rules are
-- those of src/boards/cards/cards.ts (updateCard), which passes what only it knows. NULL leaves a
-- field as it is; p_set_due says whether p_due (NULL: no due date) is to be written.
--
-- Refusals come back as {"error": …} with nothing written; "retry" when the card moved between
-- reading and locking (the caller runs the statement again, in a new transaction); "hooked" when
-- the board has webhooks and p_in_tx is false (the caller then runs it inside a transaction that
-- also writes the outbox).
CREATE FUNCTION tb_update_card(
  p_card int, p_expected int,
  p_user int, p_board_ids int[], p_roles text[],
  p_actor_user int, p_actor_key int, p_actor_name text, p_actor_client text,
  p_title text, p_description text, p_set_due boolean, p_due timestamptz, p_archived boolean,
  p_card_sql text, p_in_tx boolean
) RETURNS json LANGUAGE plpgsql AS $$
DECLARE
  v_card "Card"%ROWTYPE;
  v_cur "Card"%ROWTYPE;
  v_role text;
  v_list_board int;
  v_list_archived boolean;
  v_pos int;
  v_type text;
  v_full text;
  v_now timestamptz;
  v_activities json;
BEGIN
  SELECT c.* INTO v_card FROM "Card" c WHERE c.id = p_card;
  IF NOT FOUND THEN RETURN json_build_object('error', 'not_found', 'what', 'card'); END IF;
  SELECT m.role::text INTO v_role FROM "BoardMember" m WHERE m."boardId" = v_card."boardId" AND m."userId" = p_user;
  IF v_role IS NULL OR (p_board_ids IS NOT NULL AND NOT v_card."boardId" = ANY (p_board_ids)) THEN
    RETURN json_build_object('error', 'not_found', 'what', 'card');
  END IF;
  IF NOT v_role = ANY (p_roles) THEN RETURN json_build_object('error', 'forbidden', 'role', v_role); END IF;
  IF NOT p_in_tx AND EXISTS (SELECT 1 FROM "WebhookEndpoint" e WHERE e."boardId" = v_card."boardId") THEN
    RETURN json_build_object('error', 'hooked');
  END IF;

  -- The lock protocol: the list, then the card; anything that moved meanwhile is read again.
  SELECT l."boardId", l.archived INTO v_list_board, v_list_archived FROM "List" l WHERE l.id = v_card."listId" FOR NO KEY UPDATE;
  IF NOT FOUND THEN RETURN json_build_object('error', 'not_found', 'what', 'list'); END IF;
  IF v_list_board <> v_card."boardId" THEN RETURN json_build_object('error', 'retry'); END IF;
  SELECT c.* INTO v_cur FROM "Card" c WHERE c.id = p_card FOR NO KEY UPDATE;
  IF NOT FOUND THEN RETURN json_build_object('error', 'not_found', 'what', 'card'); END IF;
  IF v_cur."boardId" <> v_card."boardId" OR v_cur."listId" <> v_card."listId" THEN RETURN json_build_object('error', 'retry'); END IF;
  -- The time of the change is when its locks were held, not when the statement began waiting for them.
  v_now := clock_timestamp();
  IF p_expected IS NOT NULL AND p_expected <> v_cur.version THEN
    RETURN json_build_object('error', 'version', 'expected', p_expected, 'version', v_cur.version);
  END IF;

  v_pos := v_cur.position;
  IF p_archived IS TRUE AND NOT v_cur.archived THEN
    UPDATE "Card" SET position = position - 1 WHERE "listId" = v_cur."listId" AND NOT archived AND position > v_cur.position;
  END IF;
  IF p_archived IS FALSE AND v_cur.archived THEN
    IF v_list_archived THEN RETURN json_build_object('error', 'list_archived_restore'); END IF;
    SELECT count(*)::int INTO v_pos FROM "Card" c WHERE c."listId" = v_cur."listId" AND NOT c.archived;
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
  v_type := CASE WHEN p_archived IS TRUE AND NOT v_cur.archived THEN 'card.archived' ELSE 'card.updated' END;
  WITH inserted AS (
    INSERT INTO "Activity" ("boardId", type, "actorUserId", "actorKeyId", "actorName", "actorClient", data, "createdAt")
    VALUES (v_cur."boardId", v_type, p_actor_user, p_actor_key, p_actor_name, p_actor_client,
      jsonb_build_object('cardId', p_card, 'listId', v_cur."listId", 'card', v_full::jsonb - 'checklists' - 'comments' - 'attachments'), v_now)
    RETURNING *
  )
  SELECT json_agg(json_build_object(
    'id', i.id, 'boardId', i."boardId", 'type', i.type, 'actorUserId', i."actorUserId", 'actorKeyId', i."actorKeyId",
    'actorName', i."actorName", 'actorClient', i."actorClient", 'data', i.data, 'createdAt', i."createdAt",
    'hooked', EXISTS (SELECT 1 FROM "WebhookEndpoint" e WHERE e."boardId" = i."boardId")))
    INTO v_activities FROM inserted i;
  IF NOT p_in_tx AND EXISTS (SELECT 1 FROM json_array_elements(v_activities) a WHERE (a->>'hooked')::boolean) THEN
    -- A webhook was added while this waited for its locks: its outbox rows belong in this change's
    -- transaction, which the caller opens now (everything done here rolls back).
    RAISE EXCEPTION 'a board of this change has webhooks now' USING ERRCODE = 'TBHK1';
  END IF;
  RETURN json_build_object('card', v_full::json, 'activities', v_activities);
END $$;
