-- The full card as JSON text (every response that reads or changes one card), planned once per
-- connection: tb_move_card and tb_update_card EXECUTE `SELECT tb_full_card($1)` (card-json.ts
-- FULL_CARD_CALL) on every write, and the query as text was parsed and planned each time (0.4 ms).
-- This file is the function's one text. The expression between the FULL_CARD_SQL lines is written
-- from card-json.ts by `npm run db:sources` (the card's shape is the board summaries' too; edit it
-- there); test/boards/full-card-source.test.ts fails when it differs.
CREATE OR REPLACE FUNCTION tb_full_card(p_card int) RETURNS text LANGUAGE plpgsql STABLE AS $full_card$
BEGIN
  RETURN (
-- begin FULL_CARD_SQL (generated: npm run db:sources)
SELECT concat('{"id":', coalesce(s.id::text, 'null'), ',"boardId":', coalesce(s."boardId"::text, 'null'), ',"listId":', coalesce(s."listId"::text, 'null'), ',"title":', coalesce(to_json(s.title)::text, 'null'), ',"description":', coalesce(to_json(s.description)::text, 'null'), ',"position":', coalesce(s.position::text, 'null'), ',"archived":', coalesce(to_json(s.archived)::text, 'null'), ',"dueAt":', coalesce(to_json(to_char(s."dueAt" AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'))::text, 'null'), ',"labelIds":', coalesce((SELECT coalesce('[' || string_agg(x."labelId"::text, ',' ORDER BY x."labelId") || ']', '[]') FROM "CardLabel" x WHERE x."cardId" = s.id), 'null'), ',"memberIds":', coalesce((SELECT coalesce('[' || string_agg(x."userId"::text, ',' ORDER BY x."userId") || ']', '[]') FROM "CardAssignee" x WHERE x."cardId" = s.id), 'null'), ',"fieldValues":', coalesce((SELECT coalesce('{' || string_agg(to_json(x."fieldId"::text)::text || ':' || (x.value)::text, ',' ORDER BY x."fieldId") || '}', '{}') FROM "CardFieldValue" x WHERE x."cardId" = s.id), 'null'), ',"checklistItems":', coalesce((SELECT concat('{"total":', coalesce(count(*)::text, 'null'), ',"checked":', coalesce((count(*) FILTER (WHERE i.checked))::text, 'null'), '}')
      FROM "ChecklistItem" i JOIN "Checklist" k ON k.id = i."checklistId" WHERE k."cardId" = s.id), 'null'), ',"commentCount":', coalesce((SELECT count(*)::int FROM "Comment" x WHERE x."cardId" = s.id)::text, 'null'), ',"attachmentCount":', coalesce((SELECT count(*)::int FROM "Attachment" x WHERE x."cardId" = s.id)::text, 'null'), ',"coverAttachmentId":', coalesce(coalesce(s."coverAttachmentId"::text, 'null'), 'null'), ',"createdAt":', coalesce(to_json(to_char(s."createdAt" AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'))::text, 'null'), ',"updatedAt":', coalesce(to_json(to_char(s."updatedAt" AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'))::text, 'null'), ',"version":', coalesce(s.version::text, 'null'), ',"checklists":', coalesce(coalesce((SELECT json_agg(json_build_object('id', l.id, 'cardId', l."cardId", 'name', l.name, 'position', l.position,
    'items', coalesce((SELECT json_agg(json_build_object('id', i.id, 'checklistId', i."checklistId", 'name', i.name, 'checked', i.checked, 'position', i.position) ORDER BY i.position) FROM "ChecklistItem" i WHERE i."checklistId" = l.id), '[]'::json)) ORDER BY l.position) FROM "Checklist" l WHERE l."cardId" = s.id), '[]'::json)::text, 'null'), ',"comments":', coalesce(coalesce((SELECT json_agg(json_build_object('id', m.id, 'cardId', m."cardId", 'text', m.text,
    'author', json_build_object('userId', m."authorId", 'name', m."authorName"),
    'createdAt', to_char(m."createdAt" AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'), 'updatedAt', to_char(m."updatedAt" AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'), 'importedAt', to_char(m."importedAt" AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')) ORDER BY m.id DESC)
    FROM (SELECT * FROM "Comment" WHERE "cardId" = s.id ORDER BY id DESC LIMIT 50) m), '[]'::json)::text, 'null'), ',"attachments":', coalesce(coalesce((SELECT json_agg(json_build_object('id', a.id, 'cardId', a."cardId", 'filename', a.filename, 'mimeType', a."mimeType",
    'size', a.size, 'url', a.url, 'createdAt', to_char(a."createdAt" AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')) ORDER BY a.id) FROM "Attachment" a WHERE a."cardId" = s.id), '[]'::json)::text, 'null'), '}')::text AS json
FROM "Card" s WHERE s.id = p_card
-- end FULL_CARD_SQL
  );
END
$full_card$;
