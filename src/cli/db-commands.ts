import { z } from 'zod';
import { migrate } from '../platform/database/migrate.js';
import { defineCommand } from './command.js';

export const dbMigrate = defineCommand({
  name: 'db migrate',
  usage: 'db migrate',
  summary: 'apply pending migrations (also done at server start unless MIGRATE_ON_START=false)',
  flags: z.strictObject({}),
  run: async ({ db }) => migrate(db) as unknown as Promise<Record<string, unknown>>,
});
