import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { z } from 'zod';
import { findUserByEmail } from '../accounts/users/find-user.js';
import * as s from '../accounts/schemas.js';
import { formatBoardCsv } from '../boards/transfer/format-board-csv.js';
import { exportBoard, unsafeBoardFile } from '../boards/transfer/export-board.js';
import { importBoard } from '../boards/transfer/import-board.js';
import { MAX_IMPORT_BYTES, tooLarge } from '../boards/transfer/read-board-file.js';
import { userActor } from './board-commands.js';
import { defineCommand } from './command.js';

const flag = z.literal(true, { message: 'takes no value' }).optional();
const filePath = z.string({ message: 'must be a file path' }).min(1, { message: 'must be a file path' });
const boardIdFlag = z.coerce.number({ message: 'must be a board id' }).int({ message: 'must be a board id' }).positive({ message: 'must be a board id' }).max(2_147_483_647, { message: 'must be a board id' });

export const boardImport = defineCommand({
  name: 'board import',
  usage: 'board import --email E --file F [--match-members] [--dry-run]',
  summary:
    "create a board for the user from a Trello board export or our own board file, as POST /api/boards/import does (--match-members: match the file's people to users; --dry-run: only report)",
  flags: z.strictObject({ email: s.email, file: filePath, matchMembers: flag, dryRun: flag }),
  run: async ({ db, events, effects }, f) => {
    const user = await findUserByEmail({ db: db.prisma, email: f.email });
    const bytes = await readFile(f.file).catch((error: Error) => {
      throw new Error(`--file: cannot read ${f.file} (${error.message})`);
    });
    if (bytes.length > MAX_IMPORT_BYTES) throw tooLarge();
    return importBoard({ db: db.prisma, events, effects, actor: userActor(user, 'write'), bytes, matchMembers: f.matchMembers === true, dryRun: f.dryRun === true });
  },
});

export const boardExport = defineCommand({
  name: 'board export',
  usage: 'board export --email E --board B --out F [--format json|csv]',
  summary: "write a board the user can read to a file, as GET /api/boards/{id}/export does (our board file, or CSV)",
  flags: z.strictObject({ email: s.email, board: boardIdFlag, out: filePath, format: z.enum(['json', 'csv'], { message: 'must be json or csv' }).default('json') }),
  run: async ({ db }, f) => {
    const user = await findUserByEmail({ db: db.prisma, email: f.email });
    const file = await exportBoard({ db: db.prisma, actor: userActor(user, 'read'), boardId: f.board });
    const text = f.format === 'csv' ? formatBoardCsv(file) : JSON.stringify(file, null, 2);
    await writeFile(f.out, text);
    return { board: f.board, file: f.out, bytes: Buffer.byteLength(text) };
  },
});

export const boardExportAll = defineCommand({
  name: 'board export-all',
  usage: 'board export-all --out DIR',
  summary: 'back up every board (archived ones too) as our board files, DIR/board-<id>.json, one at a time',
  flags: z.strictObject({ out: filePath }),
  run: async ({ db }, f) => {
    await mkdir(f.out, { recursive: true });
    const ids = (await db.prisma.board.findMany({ select: { id: true }, orderBy: { id: 'asc' } })).map((b) => b.id);
    let written = 0;
    for (const id of ids) {
      const file = await unsafeBoardFile(db.prisma, id);
      if (!file) continue; // deleted meanwhile
      await writeFile(path.join(f.out, `board-${id}.json`), JSON.stringify(file, null, 2));
      written++;
    }
    return { boards: written, dir: f.out };
  },
});
