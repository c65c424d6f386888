import path from 'node:path';
import { fullCardFunctionSql } from './card-json.js';

/** The SQL source files written from TypeScript (`npm run db:sources`), with the text each must hold. */
export const GENERATED_SQL_SOURCES = (): { file: string; sql: string }[] => [
  { file: path.join(import.meta.dirname, 'sql', 'full-card.sql'), sql: fullCardFunctionSql() },
];
