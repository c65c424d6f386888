import { readFileSync } from 'node:fs';
import path from 'node:path';
import { CARD_DATA_SQL, FULL_CARD_SQL } from './card-json.js';

/**
 * The parts of SQL source files written from TypeScript (`npm run db:sources`), with the text each
 * file must hold. A part sits between `-- begin NAME` and `-- end NAME` lines of a hand-written
 * file, so the function around it (CREATE FUNCTION …) is written once, in that file.
 */
export const GENERATED_SQL_SOURCES = (): { file: string; sql: string }[] => [
  withPart(path.join(import.meta.dirname, 'sql', 'full-card.sql'), 'FULL_CARD_SQL', FULL_CARD_SQL),
  withPart(path.join(import.meta.dirname, '..', 'activity', 'sql', 'record-activities.sql'), 'CARD_DATA_SQL', CARD_DATA_SQL),
];

function withPart(file: string, name: string, part: string): { file: string; sql: string } {
  const text = readFileSync(file, 'utf8');
  const begin = text.match(new RegExp(`^-- begin ${name}\\b.*\\n`, 'm'));
  const end = text.match(new RegExp(`^-- end ${name}\\b.*$`, 'm'));
  if (!begin || !end || end.index! < begin.index!) throw new Error(`${file}: no "-- begin ${name}" … "-- end ${name}" lines`);
  const from = begin.index! + begin[0].length;
  return { file, sql: `${text.slice(0, from)}${part}\n${text.slice(end.index!)}` };
}
