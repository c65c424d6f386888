import type { BoardFile } from './board-file.js';

/**
 * Text a spreadsheet may run as a formula: a tab or line break first, or =, +, -, @ (or their
 * full-width and small forms, which spreadsheets in CJK locales take as the same signs) after any
 * leading whitespace, since spreadsheets skip spaces and line breaks before a formula.
 */
const FORMULA = /^(?:[\t\r\n]|[\s\u200b-\u200d\u2060\ufeff]*[=+\-@\uff1d\uff0b\uff0d\uff20\ufe62\ufe63\ufe66])/;

/**
 * One CSV cell (RFC 4180): quoted when it holds a comma, quote or line break. A cell a spreadsheet
 * would run as a formula (FORMULA) gets a leading apostrophe (OWASP's advice on CSV injection): an
 * exported card title must not become a formula in someone's spreadsheet.
 */
export function csvCell(value: string | number | boolean | null): string {
  let text = value === null ? '' : String(value);
  if (typeof value === 'string' && FORMULA.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/**
 * The board file as CSV, one row per card (archived ones too) in the board's order: list, title,
 * description, labels, due date, assignees, archived, checklist items done/total, comments, then
 * one column per custom field. Fields are named by their names, labels and people by theirs.
 */
export function formatBoardCsv(file: BoardFile): string {
  const labels = new Map(file.labels.map((l) => [l.key, l.name]));
  const members = new Map(file.members.map((m) => [m.key, m.name]));
  const header = ['List', 'Title', 'Description', 'Labels', 'Due', 'Members', 'Archived', 'Checklist items done', 'Checklist items', 'Comments', ...file.customFields.map((f) => f.name)];
  const rows = [header.map(csvCell).join(',')];
  for (const list of file.lists) {
    for (const card of list.cards) {
      const items = card.checklists.flatMap((c) => c.items);
      const cells = [
        list.name,
        card.title,
        card.description,
        card.labels.map((k) => labels.get(k) ?? k).join(', '),
        card.dueAt,
        card.members.map((k) => members.get(k) ?? k).join(', '),
        card.archived || list.archived,
        items.filter((i) => i.checked).length,
        items.length,
        card.comments.length,
        ...file.customFields.map((f) => card.fieldValues[f.key] ?? null),
      ];
      rows.push(cells.map(csvCell).join(','));
    }
  }
  return `${rows.join('\r\n')}\r\n`;
}
