-- Fits cards to board p_board (after a move or a copy there): their labels of other boards become the
-- board's label with the same name and colour (created there, shade and all, when it has none, so no label is
-- lost on the way); custom-field values of other boards and assignees who are not members of it
-- are dropped. drop-other-boards-parts.ts calls it for list moves and card copies, cards/sql/move-card.sql for a card.
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
