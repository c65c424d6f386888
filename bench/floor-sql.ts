/** The floor's board fetch: one json_agg statement with a correlated subquery per card part (bench/floor-server.ts). */
export const BOARD_SQL = `
SELECT json_build_object(
  'id', b.id, 'name', b.name, 'description', b.description, 'archived', b.archived,
  'createdAt', b."createdAt", 'updatedAt', b."updatedAt",
  'members', (SELECT coalesce(json_agg(json_build_object('userId', m."userId", 'name', u.name, 'email', u.email, 'role', m.role) ORDER BY m."createdAt"), '[]')
              FROM "BoardMember" m JOIN "User" u ON u.id = m."userId" WHERE m."boardId" = b.id),
  'labels', (SELECT coalesce(json_agg(json_build_object('id', x.id, 'name', x.name, 'color', x.color)), '[]') FROM "Label" x WHERE x."boardId" = b.id),
  'customFields', (SELECT coalesce(json_agg(json_build_object('id', x.id, 'name', x.name, 'type', x.type, 'options', x.options)), '[]') FROM "CustomField" x WHERE x."boardId" = b.id),
  'lists', (SELECT coalesce(json_agg(json_build_object('id', l.id, 'boardId', l."boardId", 'name', l.name, 'position', l.position, 'archived', l.archived,
              'cards', (SELECT coalesce(json_agg(json_build_object('id', c.id, 'boardId', c."boardId", 'listId', c."listId", 'title', c.title,
                          'description', c.description, 'position', c.position, 'archived', c.archived, 'dueAt', c."dueAt",
                          'labelIds', (SELECT coalesce(json_agg(x."labelId"), '[]') FROM "CardLabel" x WHERE x."cardId" = c.id),
                          'memberIds', (SELECT coalesce(json_agg(x."userId"), '[]') FROM "CardAssignee" x WHERE x."cardId" = c.id),
                          'fieldValues', (SELECT coalesce(json_object_agg(x."fieldId", x.value), '{}') FROM "CardFieldValue" x WHERE x."cardId" = c.id),
                          'checklistItems', (SELECT json_build_object('total', count(*), 'checked', count(*) FILTER (WHERE i.checked))
                                             FROM "ChecklistItem" i JOIN "Checklist" k ON k.id = i."checklistId" WHERE k."cardId" = c.id),
                          'commentCount', (SELECT count(*) FROM "Comment" x WHERE x."cardId" = c.id),
                          'attachmentCount', (SELECT count(*) FROM "Attachment" x WHERE x."cardId" = c.id),
                          'createdAt', c."createdAt", 'updatedAt', c."updatedAt", 'version', c.version) ORDER BY c.position), '[]')
                        FROM "Card" c WHERE c."listId" = l.id AND NOT c.archived)) ORDER BY l.position), '[]')
            FROM "List" l WHERE l."boardId" = b.id AND NOT l.archived)
) AS board
FROM "Board" b WHERE b.id = $1`;
