-- A card move in one statement: reach and role, the lock protocol (lists in id order, then the
-- card), the version check, the shifts, the update, the parts another board cannot keep, the
-- card.moved activities and the full card, as one round trip to the database. The rules are
-- those of src/boards/cards/cards.ts, which calls it (moveCard); the caller passes what only it
-- knows: the roles that may write cards (src/boards/policy.ts), the key's boards, the actor, and
-- the full card's SQL (src/boards/cards/card-json.ts, the one place the card's shape is written).
--
-- Refusals come back as {"error": …} with nothing written. {"error": "retry"}: a list or the card
-- moved between reading and locking; the caller runs the statement again, in a new transaction,
-- so that no lock is held out of the protocol's order while it reads again. A board with webhooks is refused with
-- {"error": "hooked"} unless p_in_tx: its outbox rows are written by the caller in the same
-- transaction, so the caller then runs this inside one.
CREATE FUNCTION tb_move_card(
  p_card int, p_list int, p_position int, p_expected int,
  p_user int, p_board_ids int[], p_roles text[],
  p_actor_user int, p_actor_key int, p_actor_name text, p_actor_client text,
  p_card_sql text, p_in_tx boolean
) RETURNS json LANGUAGE plpgsql AS $$
DECLARE
  v_card "Card"%ROWTYPE;
  v_cur "Card"%ROWTYPE;
  v_role text;
  v_list "List"%ROWTYPE;
  v_list_role text;
  v_locked int;
  v_source_ok boolean;
  v_target_ok boolean;
  v_target_archived boolean;
  v_n int;
  v_pos int;
  v_full text;
  v_data jsonb;
  v_cross boolean;
  v_now timestamptz;
  v_activities json;
BEGIN
  -- Reach and role: what the caller would learn from requireCard and requireList.
  SELECT c.* INTO v_card FROM "Card" c WHERE c.id = p_card;
  IF NOT FOUND THEN RETURN json_build_object('error', 'not_found', 'what', 'card'); END IF;
  SELECT m.role::text INTO v_role FROM "BoardMember" m WHERE m."boardId" = v_card."boardId" AND m."userId" = p_user;
  IF v_role IS NULL OR (p_board_ids IS NOT NULL AND NOT v_card."boardId" = ANY (p_board_ids)) THEN
    RETURN json_build_object('error', 'not_found', 'what', 'card');
  END IF;
  SELECT l.* INTO v_list FROM "List" l WHERE l.id = p_list;
  IF NOT FOUND THEN RETURN json_build_object('error', 'not_found', 'what', 'list'); END IF;
  SELECT m.role::text INTO v_list_role FROM "BoardMember" m WHERE m."boardId" = v_list."boardId" AND m."userId" = p_user;
  IF v_list_role IS NULL OR (p_board_ids IS NOT NULL AND NOT v_list."boardId" = ANY (p_board_ids)) THEN
    RETURN json_build_object('error', 'not_found', 'what', 'list');
  END IF;
  IF NOT v_role = ANY (p_roles) THEN RETURN json_build_object('error', 'forbidden', 'role', v_role); END IF;
  IF v_card."boardId" <> v_list."boardId" AND p_board_ids IS NOT NULL THEN
    RETURN json_build_object('error', 'cross_board', 'from', v_card."boardId", 'to', v_list."boardId");
  END IF;
  IF NOT v_list_role = ANY (p_roles) THEN RETURN json_build_object('error', 'forbidden', 'role', v_list_role); END IF;
  IF NOT p_in_tx AND EXISTS (SELECT 1 FROM "WebhookEndpoint" e WHERE e."boardId" IN (v_card."boardId", v_list."boardId")) THEN
    RETURN json_build_object('error', 'hooked');
  END IF;

  -- The lock protocol: both lists in id order, then the card; anything that moved meanwhile is read again.
  SELECT count(*)::int, bool_or(l.id = v_card."listId" AND l."boardId" = v_card."boardId"),
         bool_or(l.id = p_list AND l."boardId" = v_list."boardId"), bool_or(l.id = p_list AND l.archived)
    INTO v_locked, v_source_ok, v_target_ok, v_target_archived
    FROM (SELECT id, "boardId", archived FROM "List" WHERE id IN (v_card."listId", p_list) ORDER BY id FOR NO KEY UPDATE) l;
  IF v_locked < (CASE WHEN v_card."listId" = p_list THEN 1 ELSE 2 END) THEN
    RETURN json_build_object('error', 'not_found', 'what', 'list');
  END IF;
  IF NOT v_source_ok OR NOT v_target_ok THEN RETURN json_build_object('error', 'retry'); END IF;
  SELECT c.* INTO v_cur FROM "Card" c WHERE c.id = p_card FOR NO KEY UPDATE;
  IF NOT FOUND THEN RETURN json_build_object('error', 'not_found', 'what', 'card'); END IF;
  IF v_cur."boardId" <> v_card."boardId" OR v_cur."listId" <> v_card."listId" THEN RETURN json_build_object('error', 'retry'); END IF;
  -- The time of the change is when its locks were held, not when the statement began waiting for them.
  v_now := clock_timestamp();

  IF p_expected IS NOT NULL AND p_expected <> v_cur.version THEN
    RETURN json_build_object('error', 'version', 'expected', p_expected, 'version', v_cur.version);
  END IF;
  IF v_cur.archived THEN RETURN json_build_object('error', 'card_archived'); END IF;
  IF v_target_archived THEN RETURN json_build_object('error', 'list_archived'); END IF;
  SELECT count(*)::int INTO v_n FROM "Card" c WHERE c."listId" = p_list AND NOT c.archived AND c.id <> p_card;
  v_pos := coalesce(p_position, v_n);
  IF v_pos < 0 OR v_pos > v_n THEN RETURN json_build_object('error', 'position', 'max', v_n); END IF;

  IF p_list = v_cur."listId" THEN
    IF v_pos = v_cur.position THEN
      EXECUTE p_card_sql INTO v_full USING p_card;
      RETURN json_build_object('card', v_full::json, 'activities', '[]'::json);
    END IF;
    IF v_pos > v_cur.position THEN
      UPDATE "Card" SET position = position - 1
        WHERE "listId" = p_list AND NOT archived AND position BETWEEN v_cur.position + 1 AND v_pos;
    ELSE
      UPDATE "Card" SET position = position + 1
        WHERE "listId" = p_list AND NOT archived AND position BETWEEN v_pos AND v_cur.position - 1;
    END IF;
  ELSE
    UPDATE "Card" SET position = position - 1 WHERE "listId" = v_cur."listId" AND NOT archived AND position > v_cur.position;
    UPDATE "Card" SET position = position + 1 WHERE "listId" = p_list AND NOT archived AND position >= v_pos;
  END IF;
  UPDATE "Card" SET "listId" = p_list, "boardId" = v_list."boardId", position = v_pos, version = version + 1, "updatedAt" = v_now
    WHERE id = p_card;

  v_cross := v_list."boardId" <> v_cur."boardId";
  IF v_cross THEN
    -- What the card cannot keep on the other board (dropOtherBoardsParts).
    DELETE FROM "CardLabel" cl USING "Label" l WHERE l.id = cl."labelId" AND cl."cardId" = p_card AND l."boardId" <> v_list."boardId";
    DELETE FROM "CardFieldValue" v USING "CustomField" f WHERE f.id = v."fieldId" AND v."cardId" = p_card AND f."boardId" <> v_list."boardId";
    DELETE FROM "CardAssignee" a WHERE a."cardId" = p_card
      AND NOT EXISTS (SELECT 1 FROM "BoardMember" m WHERE m."boardId" = v_list."boardId" AND m."userId" = a."userId");
  END IF;

  EXECUTE p_card_sql INTO v_full USING p_card;
  v_data := jsonb_build_object(
    'cardId', p_card, 'listId', p_list,
    'card', v_full::jsonb - 'checklists' - 'comments' - 'attachments',
    'from', CASE WHEN v_cross THEN jsonb_build_object('boardId', v_cur."boardId", 'listId', v_cur."listId", 'position', v_cur.position)
                 ELSE jsonb_build_object('listId', v_cur."listId", 'position', v_cur.position) END,
    'to', CASE WHEN v_cross THEN jsonb_build_object('boardId', v_list."boardId", 'listId', p_list, 'position', v_pos)
               ELSE jsonb_build_object('listId', p_list, 'position', v_pos) END);
  WITH inserted AS (
    INSERT INTO "Activity" ("boardId", type, "actorUserId", "actorKeyId", "actorName", "actorClient", data, "createdAt")
    SELECT b, 'card.moved', p_actor_user, p_actor_key, p_actor_name, p_actor_client, v_data, v_now
      FROM unnest(CASE WHEN v_cross THEN ARRAY[v_cur."boardId", v_list."boardId"] ELSE ARRAY[v_cur."boardId"] END) b
    RETURNING *
  )
  SELECT json_agg(json_build_object(
    'id', i.id, 'boardId', i."boardId", 'type', i.type, 'actorUserId', i."actorUserId", 'actorKeyId', i."actorKeyId",
    'actorName', i."actorName", 'actorClient', i."actorClient", 'data', i.data, 'createdAt', i."createdAt",
    'hooked', EXISTS (SELECT 1 FROM "WebhookEndpoint" e WHERE e."boardId" = i."boardId")) ORDER BY i.id)
    INTO v_activities FROM inserted i;
  IF NOT p_in_tx AND EXISTS (SELECT 1 FROM json_array_elements(v_activities) a WHERE (a->>'hooked')::boolean) THEN
    -- A webhook was added while this waited for its locks: its outbox rows belong in this change's
    -- transaction, which the caller opens now (everything done here rolls back).
    RAISE EXCEPTION 'a board of this change has webhooks now' USING ERRCODE = 'TBHK1';
  END IF;
  RETURN json_build_object('card', v_full::json, 'activities', v_activities);
END $$;
