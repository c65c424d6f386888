import { badRequest } from '../../../platform/errors.js';

/**
 * CSV text (RFC 4180: quoted cells may hold commas, quotes doubled, line breaks) as rows of cells.
 * A byte-order mark is dropped; blank lines are skipped. An unterminated quote is a 400.
 */
export function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let cell = '';
  let quoted = false;
  let i = text.charCodeAt(0) === 0xfeff ? 1 : 0;
  const endRow = () => {
    row.push(cell);
    if (row.length > 1 || row[0] !== '') rows.push(row);
    row = [];
    cell = '';
  };
  for (; i < text.length; i++) {
    const c = text[i]!;
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') {
        cell += '"';
        i++;
      } else if (c === '"') quoted = false;
      else cell += c;
    } else if (c === '"' && cell === '') quoted = true;
    else if (c === ',') {
      row.push(cell);
      cell = '';
    } else if (c === '\r' && text[i + 1] === '\n') {
      endRow();
      i++;
    } else if (c === '\n' || c === '\r') endRow();
    else cell += c;
  }
  if (quoted) throw badRequest(`csv: a quoted cell is not closed (row ${rows.length + 1})`);
  if (cell !== '' || row.length) endRow();
  return rows;
}
