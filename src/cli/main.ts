/**
 * The admin CLI: `npm run --silent admin -- <command> [flags]`. One JSON object on stdout;
 * exit 0, or 1 with {"error": "..."}.
 */
import path from 'node:path';
import { ConfigError, loadConfig, loadDotEnv } from '../config.js';
import { DataDirBusyError, dataDirHolder } from '../platform/database/data-dir-lock.js';
import { EventBus } from '../boards/activity/event-bus.js';
import { type Database, openEmbedded, openPostgres } from '../platform/db.js';
import { migrate } from '../platform/database/migrate.js';
import { sendToAdminSocket } from './admin-socket.js';
import { cliEffects } from './effects.js';
import { type CommandOutcome, helpText, runCommand } from './run-command.js';

async function main(argv: string[]): Promise<CommandOutcome> {
  loadDotEnv();
  const config = loadConfig();
  if (config.DATABASE_URL) {
    return withDatabase(
      openPostgres({ url: config.DATABASE_URL, connectTimeoutMs: config.DATABASE_CONNECT_TIMEOUT_MS, poolSize: 2 }),
      argv,
    );
  }
  // The embedded database belongs to one process: ask the server when it holds it.
  if (dataDirHolder(config.dataDir) === null) {
    try {
      return await withDatabase(await openEmbedded(config.dataDir), argv);
    } catch (error) {
      if (!(error instanceof DataDirBusyError)) throw error;
    }
  }
  const outcome = await sendToAdminSocket(config.dataDir, argv);
  if (outcome) return outcome;
  const pid = dataDirHolder(config.dataDir);
  throw new Error(
    `the embedded database in ${config.dataDir} is held by process ${pid ?? '?'}, which does not answer ` +
      'admin commands (is it still starting?); retry, stop it, or set DATABASE_URL',
  );

  async function withDatabase(db: Database, args: string[]): Promise<CommandOutcome> {
    // On PostgreSQL the servers hear this process's changes (their streams, their cached boards);
    // it listens to nobody's.
    const events = new EventBus();
    events.notifyOnly(db);
    try {
      if (config.MIGRATE_ON_START) await migrate(db);
      return await runCommand(args, { db, config, events, effects: cliEffects(events) });
    } finally {
      await events.close();
      await db.close();
    }
  }
}

// File paths are read by whichever process runs the command (the server, through its socket):
// make them absolute here, where they were typed.
const argv = process.argv.slice(2).map((arg, i, all) => {
  if (all[i - 1] === '--file' && !arg.startsWith('--')) return path.resolve(arg);
  if (arg.startsWith('--file=')) return `--file=${path.resolve(arg.slice(7))}`;
  return arg;
});
if (argv.length === 0 || argv.includes('--help') || argv.includes('-h')) {
  console.log(helpText(argv));
  process.exit(argv.length === 0 ? 1 : 0);
}
main(argv)
  .then((outcome) => {
    process.stdout.write(`${JSON.stringify(outcome.body)}\n`);
    process.exitCode = outcome.exitCode;
  })
  .catch((error: unknown) => {
    const message = error instanceof ConfigError || error instanceof Error ? error.message : String(error);
    process.stdout.write(`${JSON.stringify({ error: message })}\n`);
    process.exitCode = 1;
  });
