-- The one text of recording a board activity: its row, whether its board has webhooks and its
-- NOTIFY to the other processes, in the change's transaction. The card statements
-- (cards/sql/move-card.sql, update-card.sql) call tb_record_activities in their one statement;
-- change-board.ts calls it for every other board change.

-- Whether one of the boards has a webhook: then the change must run in a transaction that also
-- writes the webhook outbox, which the caller opens ({"error": "hooked"}, nothing written).
-- (PL/pgSQL for the reason board-role.sql gives: a card statement asks it twice.)
CREATE OR REPLACE FUNCTION tb_hooked(p_boards int[]) RETURNS boolean
LANGUAGE plpgsql STABLE AS $$
BEGIN
  RETURN EXISTS (SELECT 1 FROM "WebhookEndpoint" e WHERE e."boardId" = ANY (p_boards));
END $$;

-- The data every card activity of a statement carries (card.moved adds from/to): the card's id,
-- its list and its summary (the full card less its checklists, comments and attachments: what
-- boards/json/card-json.ts names FULL_CARD_PARTS, from which `npm run db:sources` writes the body).
-- Typed in src/boards/activity/activity-types.ts, which the caller checks the answer against (CardOutcome).
-- STABLE, not IMMUTABLE: jsonb_build_object is STABLE, and only a function no stricter than its
-- body is inlined where it is called.
CREATE OR REPLACE FUNCTION tb_card_data(p_card int, p_list int, p_full text) RETURNS jsonb
LANGUAGE sql STABLE AS $$
-- begin CARD_DATA_SQL (generated: npm run db:sources)
  SELECT jsonb_build_object('cardId', p_card, 'listId', p_list, 'card', p_full::jsonb - 'checklists' - 'comments' - 'attachments')
-- end CARD_DATA_SQL
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
