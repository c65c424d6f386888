-- What the card statements (move-card.sql, update-card.sql) share: reading the card with the
-- caller's reach and role, locking it, recording the activities (with their webhook flag and
-- NOTIFY in the same transaction) and the parts a card cannot keep on another board. Refusals are
-- JSON objects {"error": …} with everything the caller needs to word them: see card-refusal.ts.

-- The card as read before any lock, the caller's role on its board, or why it is out of reach.
CREATE OR REPLACE FUNCTION tb_read_card(p_card int, p_user int, p_board_ids int[], OUT card "Card", OUT role text, OUT refusal json)
LANGUAGE plpgsql STABLE AS $$
BEGIN
  SELECT c.* INTO card FROM "Card" c WHERE c.id = p_card;
  IF FOUND THEN role := tb_board_role(card."boardId", p_user, p_board_ids); END IF;
  IF role IS NULL THEN refusal := json_build_object('error', 'not_found', 'what', 'card'); END IF;
END $$;

-- A refusal for a role that does not allow the write (p_roles: the roles policy.ts allows it).
CREATE OR REPLACE FUNCTION tb_role_refusal(p_role text, p_roles text[], p_action text) RETURNS json
LANGUAGE sql IMMUTABLE AS $$
  SELECT CASE WHEN p_role = ANY (p_roles) THEN NULL ELSE json_build_object('error', 'forbidden', 'role', p_role, 'action', p_action) END
$$;

-- Whether one of the boards has a webhook: then the change must run in a transaction that also
-- writes the webhook outbox, which the caller opens ({"error": "hooked"}, nothing written).
-- (PL/pgSQL for the reason board-role.sql gives: a card statement asks it twice.)
CREATE OR REPLACE FUNCTION tb_hooked(p_boards int[]) RETURNS boolean
LANGUAGE plpgsql STABLE AS $$
BEGIN
  RETURN EXISTS (SELECT 1 FROM "WebhookEndpoint" e WHERE e."boardId" = ANY (p_boards));
END $$;

-- The card locked (lists first: the caller locks them), checked against what was read and authorised
-- (moved meanwhile: {"error": "retry"}) and against the client's version.
CREATE OR REPLACE FUNCTION tb_lock_card(p_seen "Card", p_expected int, OUT card "Card", OUT refusal json)
LANGUAGE plpgsql AS $$
BEGIN
  SELECT c.* INTO card FROM "Card" c WHERE c.id = p_seen.id FOR NO KEY UPDATE;
  IF NOT FOUND THEN
    refusal := json_build_object('error', 'not_found', 'what', 'card');
  ELSIF card."boardId" <> p_seen."boardId" OR card."listId" <> p_seen."listId" THEN
    refusal := json_build_object('error', 'retry');
  ELSIF p_expected IS NOT NULL AND p_expected <> card.version THEN
    refusal := json_build_object('error', 'version', 'expected', p_expected, 'version', card.version);
  END IF;
END $$;

-- The data every card activity of a statement carries (card.moved adds from/to): the card's id,
-- its list and its summary (the full card less checklists, comments and attachments). Typed in
-- src/boards/activity/activity-types.ts, which the caller checks the answer against (CardOutcome).
CREATE OR REPLACE FUNCTION tb_card_data(p_card int, p_list int, p_full text) RETURNS jsonb
LANGUAGE sql IMMUTABLE AS $$
  SELECT jsonb_build_object('cardId', p_card, 'listId', p_list, 'card', p_full::jsonb - 'checklists' - 'comments' - 'attachments')
$$;

-- Records one activity of type p_type with p_data on each board of p_boards, at p_now, by p_actor
-- ({actorUserId, actorKeyId, actorName, actorClient}: activity/change-board.ts actorColumns). Each
-- is announced to the other server processes in this transaction (p_notify: [channel, origin];
-- NULL: nobody listens), so a change that commits is never left unannounced. Answers the rows as
-- change-board.ts's InsertedActivity, each with whether its board has webhooks; when one has and
-- the caller is not in a transaction (p_in_tx), everything rolls back with TBHK1 and the caller
-- runs the change again inside one.
CREATE OR REPLACE FUNCTION tb_record_activities(
  p_boards int[], p_type text, p_data jsonb, p_actor jsonb, p_now timestamptz, p_notify text[], p_in_tx boolean
) RETURNS json LANGUAGE plpgsql AS $$
DECLARE
  v_activities json;
BEGIN
  WITH inserted AS (
    INSERT INTO "Activity" ("boardId", type, "actorUserId", "actorKeyId", "actorName", "actorClient", data, "createdAt")
    SELECT b, p_type, (p_actor->>'actorUserId')::int, (p_actor->>'actorKeyId')::int, p_actor->>'actorName', p_actor->>'actorClient', p_data, p_now
      FROM unnest(p_boards) b
    RETURNING *
  )
  SELECT json_agg(json_build_object(
    'id', i.id, 'boardId', i."boardId", 'type', i.type, 'actorUserId', i."actorUserId", 'actorKeyId', i."actorKeyId",
    'actorName', i."actorName", 'actorClient', i."actorClient", 'data', i.data, 'createdAt', i."createdAt",
    'hooked', tb_hooked(ARRAY[i."boardId"])) ORDER BY i.id)
    INTO v_activities FROM inserted i;
  IF NOT p_in_tx AND EXISTS (SELECT 1 FROM json_array_elements(v_activities) a WHERE (a->>'hooked')::boolean) THEN
    -- A webhook was added while this waited for its locks: its outbox rows belong in this change's
    -- transaction, which the caller opens now (everything done here rolls back).
    RAISE EXCEPTION 'a board of this change has webhooks now' USING ERRCODE = 'TBHK1';
  END IF;
  IF p_notify IS NOT NULL THEN
    PERFORM pg_notify(p_notify[1], json_build_object('o', p_notify[2], 'id', (a->>'id')::int, 'b', (a->>'boardId')::int)::text)
      FROM json_array_elements(v_activities) a;
  END IF;
  RETURN v_activities;
END $$;

-- Fits cards to board p_board (after a move there): their labels of other boards become the
-- board's label with the same name and colour (created there, shade and all, when it has none, so no label is
-- lost on the way); custom-field values of other boards and assignees who are not members of it
-- are dropped. drop-other-boards-parts.ts calls it for list moves.
CREATE OR REPLACE FUNCTION tb_drop_other_boards_parts(p_cards int[], p_board int) RETURNS void
LANGUAGE sql AS $$
  INSERT INTO "Label" ("boardId", name, color, shade)
    SELECT DISTINCT ON (l.name, l.color) p_board, l.name, l.color, l.shade FROM "CardLabel" cl JOIN "Label" l ON l.id = cl."labelId"
     WHERE cl."cardId" = ANY (p_cards) AND l."boardId" <> p_board
       AND NOT EXISTS (SELECT 1 FROM "Label" t WHERE t."boardId" = p_board AND t.name = l.name AND t.color IS NOT DISTINCT FROM l.color)
     ORDER BY l.name, l.color, l.id;
  INSERT INTO "CardLabel" ("cardId", "labelId")
    SELECT cl."cardId", (SELECT min(t.id) FROM "Label" t WHERE t."boardId" = p_board AND t.name = l.name AND t.color IS NOT DISTINCT FROM l.color)
      FROM "CardLabel" cl JOIN "Label" l ON l.id = cl."labelId"
     WHERE cl."cardId" = ANY (p_cards) AND l."boardId" <> p_board
    ON CONFLICT DO NOTHING;
  DELETE FROM "CardLabel" cl USING "Label" l WHERE l.id = cl."labelId" AND cl."cardId" = ANY (p_cards) AND l."boardId" <> p_board;
  DELETE FROM "CardFieldValue" v USING "CustomField" f WHERE f.id = v."fieldId" AND v."cardId" = ANY (p_cards) AND f."boardId" <> p_board;
  DELETE FROM "CardAssignee" a WHERE a."cardId" = ANY (p_cards)
    AND NOT EXISTS (SELECT 1 FROM "BoardMember" m WHERE m."boardId" = p_board AND m."userId" = a."userId");
$$;
