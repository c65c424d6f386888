import type { z } from 'zod';
import { AppError, badRequest } from '../../platform/errors.js';
import { fitFieldValue } from '../fit-field-value.js';
import { BOARD_FILE_FORMAT, type BoardFile, boardFile } from './board-file.js';
import { boardFileFromTrello } from './from-trello.js';
import { ImportReport, type UnmappedEntry } from './import-report.js';
import { trelloExport } from './trello-export.js';

/** The largest file an import takes (a Trello export of thousands of cards and tens of thousands of actions). */
export const MAX_IMPORT_BYTES = 20 * 1024 * 1024;
/** Deeper JSON than any export has (Trello's go about 8 levels down): refused before it is parsed. */
export const MAX_IMPORT_DEPTH = 32;

export const tooLarge = () => new AppError(413, 'payload_too_large', `file: larger than ${MAX_IMPORT_BYTES / 1024 / 1024} MB, the most an import takes`);

/** The nesting depth of JSON text, counted without parsing it; stops counting past `limit`. */
function depthOver(text: string, limit: number): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 92) i++; // a backslash escapes the next character
      else if (c === 34) inString = false;
    } else if (c === 34) inString = true;
    else if (c === 123 || c === 91) {
      if (++depth > limit) return true;
    } else if (c === 125 || c === 93) depth--;
  }
  return false;
}

/** "lists[2].cards[0].title: must be 1-512 characters": the first issue, path first. */
function describeIssue(error: z.ZodError): string {
  const issue = error.issues[0]!;
  const path = issue.path.map((p, i) => (typeof p === 'number' ? `[${p}]` : `${i ? '.' : ''}${String(p)}`)).join('');
  return `file: ${path ? `${path}: ` : ''}${issue.message}`;
}

export interface ReadFile {
  /** Which format the file was in. */
  source: 'trello' | 'taskboard';
  file: BoardFile;
  unmapped: UnmappedEntry[];
}

/**
 * An uploaded file read as a board: a Trello board export or our own board file (told apart by
 * `format`). Anything else, malformed JSON, nesting deeper than MAX_IMPORT_DEPTH, a wrong shape or
 * a file that contradicts itself is a 400 naming what is wrong; over MAX_IMPORT_BYTES a 413.
 */
export function readBoardFile(bytes: Buffer | string): ReadFile {
  if (Buffer.byteLength(bytes) > MAX_IMPORT_BYTES) throw tooLarge();
  const text = typeof bytes === 'string' ? bytes : bytes.toString('utf8');
  if (text.trim() === '') throw badRequest('file: empty');
  if (depthOver(text, MAX_IMPORT_DEPTH)) throw badRequest(`file: nested deeper than ${MAX_IMPORT_DEPTH} levels; not a board export`);
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw badRequest('file: not JSON (malformed)');
  }
  if (typeof json !== 'object' || json === null || Array.isArray(json)) throw badRequest('file: must be a JSON object (a board export)');
  if ('format' in json) {
    const parsed = boardFile.safeParse(json);
    if (!parsed.success) throw badRequest(describeIssue(parsed.error));
    checkKeys(parsed.data);
    return { source: 'taskboard', file: parsed.data, unmapped: parsed.data.lists.some((l) => l.cards.some((c) => c.attachments.some((a) => !a.url))) ? attachmentsLeftOut(parsed.data) : [] };
  }
  if (!('lists' in json) || !('cards' in json)) {
    throw badRequest(`file: neither a Trello board export (with lists and cards) nor our own board file (format "${BOARD_FILE_FORMAT}")`);
  }
  const parsed = trelloExport.safeParse(json);
  if (!parsed.success) throw badRequest(describeIssue(parsed.error));
  const report = new ImportReport();
  const mapped = boardFileFromTrello(parsed.data, report);
  // The mapping keeps within our limits; should it ever not, the same checks as our own files say where.
  const file = boardFile.safeParse(mapped);
  if (!file.success) throw badRequest(`${describeIssue(file.error)} (after mapping the Trello export)`);
  return { source: 'trello', file: file.data, unmapped: report.list() };
}

/** Our own files: keys unique, and every reference to a label, field or member one the file has (else 400). */
function checkKeys(file: BoardFile) {
  const keysOf = (items: { key: string }[], where: string) => {
    const keys = new Set<string>();
    items.forEach((item, i) => {
      if (keys.has(item.key)) throw badRequest(`file: ${where}[${i}].key: "${item.key}" appears twice in ${where}`);
      keys.add(item.key);
    });
    return keys;
  };
  const labels = keysOf(file.labels, 'labels');
  const fields = new Map(file.customFields.map((f) => [f.key, f]));
  keysOf(file.customFields, 'customFields');
  const members = keysOf(file.members, 'members');
  file.lists.forEach((list, l) =>
    list.cards.forEach((card, c) => {
      const at = `lists[${l}].cards[${c}]`;
      const label = card.labels.find((k) => !labels.has(k));
      if (label !== undefined) throw badRequest(`file: ${at}.labels: "${label}" is not a key of labels`);
      const member = card.members.find((k) => !members.has(k));
      if (member !== undefined) throw badRequest(`file: ${at}.members: "${member}" is not a key of members`);
      const comment = card.comments.findIndex((m) => m.author !== null && !members.has(m.author));
      if (comment >= 0) throw badRequest(`file: ${at}.comments[${comment}].author: "${card.comments[comment]!.author}" is not a key of members`);
      for (const [key, value] of Object.entries(card.fieldValues)) {
        const field = fields.get(key);
        if (!field) throw badRequest(`file: ${at}.fieldValues: "${key}" is not a key of customFields`);
        const fit = fitFieldValue(field, value);
        if ('error' in fit) throw badRequest(`file: ${at}.fieldValues.${key}: ${fit.error}`);
      }
    }),
  );
}

function attachmentsLeftOut(file: BoardFile): UnmappedEntry[] {
  const report = new ImportReport();
  for (const list of file.lists) for (const card of list.cards) for (const a of card.attachments) if (!a.url) report.add("attached files (the file holds their names, not their bytes)", `${card.title}: ${a.filename}`);
  return report.list();
}
