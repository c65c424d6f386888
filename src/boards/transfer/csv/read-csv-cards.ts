import { z } from 'zod';
import { badRequest } from '../../../platform/errors.js';
import { parseDueDate } from '../../parse-due-date.js';
import { TEXT_LIMIT } from '../../schemas.js';
import { parseCsv } from './parse-csv.js';

export const CSV_FIELDS = ['title', 'list', 'description', 'labels', 'due', 'members', 'ignore'] as const;
export type CsvField = (typeof CSV_FIELDS)[number];

/** Header names taken without a mapping (compared in lower case): Jira's, Asana's and our own export's. */
const KNOWN: Record<string, CsvField> = {
  title: 'title', name: 'title', summary: 'title', 'task name': 'title', card: 'title',
  list: 'list', status: 'list', column: 'list', section: 'list', 'section/column': 'list',
  description: 'description', notes: 'description', desc: 'description',
  labels: 'labels', label: 'labels', tags: 'labels',
  due: 'due', 'due date': 'due', 'due on': 'due', duedate: 'due',
  members: 'members', assignee: 'members', assignees: 'members', 'assignee email': 'members',
};

export const MAX_CSV_ROWS = 5000;
/** A wider header is no card list: without a bound, every row was walked over every column (rows × columns of work). */
export const MAX_CSV_COLUMNS = 200;

/** One card a CSV row makes, before it is placed: names as written, resolved against the board later. */
export interface CsvCard {
  row: number;
  title: string;
  list: string | null;
  description: string;
  labels: string[];
  dueAt: Date | null;
  members: string[];
}

export const csvProblem = z.object({ row: z.number().int().describe('The row (1 is the header).'), message: z.string() }).meta({ id: 'CsvProblem' });
export type CsvProblem = z.infer<typeof csvProblem>;

const split = (cell: string) => [...new Set(cell.split(/[,;]/).map((v) => v.trim()).filter(Boolean))];

/**
 * The CSV's rows as cards: the header row names the columns, each mapped to a card field by
 * `columns` (header → field) or else by its name (Title, List, Status, Labels, Due date…). Rows
 * that cannot be a card (no title, a title over 512 characters, a due date that is not one) are
 * problems, by row. A CSV without a title column is a 400.
 */
export function readCsvCards(text: string, columns: Record<string, CsvField> = {}) {
  const rows = parseCsv(text);
  if (rows.length === 0) throw badRequest('csv: empty; the first row must name the columns');
  if (rows.length - 1 > MAX_CSV_ROWS) throw badRequest(`csv: more than ${MAX_CSV_ROWS} rows`);
  if (rows[0]!.length > MAX_CSV_COLUMNS) throw badRequest(`csv: more than ${MAX_CSV_COLUMNS} columns in the header row`);
  const header = rows[0]!.map((h) => h.trim());
  // Own properties only: a column named "constructor" or "__proto__" is a column like any other, not Object's.
  const named = (table: Record<string, CsvField>, key: string) => (Object.hasOwn(table, key) ? table[key] : undefined);
  const mapping = header.map((h): CsvField => named(columns, h) ?? named(KNOWN, h.toLowerCase()) ?? 'ignore');
  const used = mapping.flatMap((field, c) => (field === 'ignore' ? [] : [{ field, c }]));
  for (const name of Object.keys(columns)) if (!header.includes(name)) throw badRequest(`columns: "${name}" is not a column of the CSV's header row`);
  if (!mapping.includes('title')) throw badRequest(`csv: no column is the card title (name one Title, or map one with columns); the columns are ${header.join(', ')}`);
  const cards: CsvCard[] = [];
  const problems: CsvProblem[] = [];
  rows.slice(1).forEach((cells, r) => {
    const row = r + 2;
    const card: CsvCard = { row, title: '', list: null, description: '', labels: [], dueAt: null, members: [] };
    for (const { field, c } of used) {
      const value = (cells[c] ?? '').trim();
      if (field === 'title') card.title = value;
      else if (field === 'list') card.list = value || null;
      else if (field === 'description') card.description = (cells[c] ?? '').replace(/\u0000/g, '');
      else if (field === 'labels') card.labels = split(value);
      else if (field === 'members') card.members = split(value);
      else if (field === 'due' && value) {
        const at = parseDueDate(value.length > 10 && !/[zZ]|[+-]\d\d:?\d\d$/.test(value) ? `${value}Z` : value);
        if (at) card.dueAt = at;
        else problems.push({ row, message: `due: "${value}" is not a date (YYYY-MM-DD or ISO-8601)` });
      }
    }
    card.title = card.title.replace(/\u0000/g, '');
    if (!card.title) problems.push({ row, message: 'title: empty' });
    else if (card.title.length > 512) problems.push({ row, message: 'title: over 512 characters' });
    else if (card.description.length > TEXT_LIMIT) problems.push({ row, message: `description: over ${TEXT_LIMIT} characters` });
    else if (card.list && card.list.length > 100) problems.push({ row, message: 'list: a list name over 100 characters' });
    else if (card.labels.some((l) => l.length > 100)) problems.push({ row, message: 'labels: a label name over 100 characters' });
    else cards.push(card);
  });
  return { columns: Object.fromEntries(header.map((h, i) => [h, mapping[i]!])), cards, problems };
}
