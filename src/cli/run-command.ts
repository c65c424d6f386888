import { z } from 'zod';
import { AppError } from '../platform/errors.js';
import { parseArgs, toKebab } from './args.js';
import type { Command, CommandContext } from './command.js';
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
      // A flag left out is "required", whatever its schema says of a wrong value (zod's default names the type it got: undefined).
      if (issue.path.length === 1 && (flags as Record<string, unknown>)[String(issue.path[0])] === undefined) return fail(`${flag} is required (usage: ${command.usage})`);
      return fail(`${flag}: ${issue.message} (usage: ${command.usage})`);
    }
    return { exitCode: 0, body: await command.run(ctx, parsed.data) };
  } catch (error) {
    if (error instanceof AppError) return fail(error.message);
    return fail(error instanceof Error ? error.message : String(error));
  }
}

const fail = (message: string): CommandOutcome => ({ exitCode: 1, body: { error: message } });

const PROGRAM = 'npm run --silent admin --';

/**
 * The help `--help` (or `-h`) asks for: a command's usage, summary and flags when the words
 * before it name one; the commands of a group (`key --help`); else every command.
 */
export function helpText(argv: string[] = []): string {
  const words = argv.filter((arg) => !arg.startsWith('-'));
  for (let n = words.length; n > 0; n--) {
    const command = commands.find((c) => c.name === words.slice(0, n).join(' '));
    if (command) return commandHelp(command);
  }
  const group = commands.filter((c) => words.length > 0 && c.name.split(' ')[0] === words[0]);
  const listed = group.length ? group : commands;
  const width = Math.max(...listed.map((c) => c.name.length));
  return [
    `usage: ${PROGRAM} <command> [flags]`,
    '',
    'Prints one JSON object on stdout; exit code 0 on success, 1 with {"error": "..."} otherwise.',
    'Uses DATABASE_URL, or the embedded database in DATA_DIR (through the running server when it holds it).',
    `"<command> --help" describes one command and its flags.`,
    '',
    group.length ? `${words[0]} commands:` : 'commands:',
    ...listed.map((c) => `  ${c.name.padEnd(width)}  ${c.summary}`),
  ].join('\n');
}

/** One command's usage, summary and flags (required or optional, their values where they are a fixed set). */
function commandHelp(command: Command): string {
  const rows = flagsOf(command.flags).map(({ name, required, values, description }) => {
    const placeholder = new RegExp(`--${name} ([^\\s\\])-][^\\s\\])]*)`).exec(command.usage)?.[1];
    const left = `--${name}${placeholder ? ` ${placeholder}` : ''}`;
    const choices = values && !placeholder?.includes('|') ? `one of ${values.join(', ')}` : '';
    const right = [required ? 'required' : 'optional', choices, description ?? ''].filter(Boolean).join('; ');
    return [left, right] as const;
  });
  rows.push(['--help', 'print this help']);
  const width = Math.max(...rows.map(([left]) => left.length));
  return [
    `usage: ${PROGRAM} ${command.usage}`,
    '',
    `${command.summary[0]!.toUpperCase()}${command.summary.slice(1)}.`,
    '',
    'flags:',
    ...rows.map(([left, right]) => `  ${left.padEnd(width)}  ${right}`),
  ].join('\n');
}

/** The flags a command's schema declares, read from its object shape (through refinements and pipes). */
function flagsOf(schema: z.ZodType): { name: string; required: boolean; values?: string[]; description?: string }[] {
  const shape = objectShape(schema);
  if (!shape) return [];
  return Object.entries(shape).map(([key, field]) => {
    const required = !field.safeParse(undefined).success;
    const inner = unwrap(field);
    const values = inner instanceof z.ZodEnum ? (inner.options as string[]) : undefined;
    const description = field.description ?? inner.description;
    return { name: toKebab(key), required, ...(values ? { values } : {}), ...(description ? { description } : {}) };
  });
}

function objectShape(schema: z.ZodType): Record<string, z.ZodType> | null {
  if (schema instanceof z.ZodObject) return schema.shape as Record<string, z.ZodType>;
  const def = (schema as { _zod: { def: { in?: z.ZodType; innerType?: z.ZodType } } })._zod.def;
  const inner = def.innerType ?? def.in;
  return inner ? objectShape(inner) : null;
}

function unwrap(schema: z.ZodType): z.ZodType {
  const def = (schema as { _zod: { def: { innerType?: z.ZodType; in?: z.ZodType } } })._zod.def;
  if (schema instanceof z.ZodOptional || schema instanceof z.ZodDefault) return unwrap(def.innerType!);
  return schema;
}
