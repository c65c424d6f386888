import { AppError } from '../platform/errors.js';
import { parseArgs, toKebab } from './args.js';
import type { CommandContext } from './command.js';
import { commands } from './commands.js';

export interface CommandOutcome {
  exitCode: 0 | 1;
  body: Record<string, unknown>;
}

/** Parses argv, runs the matching command and shapes its result or error as the CLI prints it. */
export async function runCommand(argv: string[], ctx: CommandContext): Promise<CommandOutcome> {
  try {
    const { words, flags } = parseArgs(argv);
    const name = words.join(' ');
    const command = commands.find((c) => c.name === name);
    if (!command) return fail(`unknown command "${name}"; run with --help to list the commands`);
    const parsed = command.flags.safeParse(flags);
    if (!parsed.success) {
      const issue = parsed.error.issues[0]!;
      const flag = issue.path.length ? `--${toKebab(String(issue.path[0]))}` : 'flags';
      const keys = (issue as { keys?: string[] }).keys;
      if (issue.code === 'unrecognized_keys' && keys?.length) return fail(`--${toKebab(keys[0]!)}: unknown flag for "${name}" (usage: ${command.usage})`);
      return fail(`${flag}: ${issue.message} (usage: ${command.usage})`);
    }
    return { exitCode: 0, body: await command.run(ctx, parsed.data) };
  } catch (error) {
    if (error instanceof AppError) return fail(error.message);
    return fail(error instanceof Error ? error.message : String(error));
  }
}

const fail = (message: string): CommandOutcome => ({ exitCode: 1, body: { error: message } });

export function helpText(): string {
  const width = Math.max(...commands.map((c) => c.usage.length));
  return [
    'usage: npm run --silent admin -- <command> [flags]',
    '',
    'Prints one JSON object on stdout; exit code 0 on success, 1 with {"error": "..."} otherwise.',
    'Uses DATABASE_URL, or the embedded database in DATA_DIR (through the running server when it holds it).',
    '',
    'commands:',
    ...commands.map((c) => `  ${c.usage.padEnd(width)}  ${c.summary}`),
  ].join('\n');
}
