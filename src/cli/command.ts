import type { z } from 'zod';
import type { Config } from '../config.js';
import type { Database } from '../platform/db.js';
import type { EventBus } from '../boards/activity/event-bus.js';
import type { Effects } from '../platform/after-commit.js';

/** What a CLI command runs with: the same database (and later, bus) the server uses. */
export interface CommandContext {
  db: Database;
  config: Config;
  /**
   * The server's event bus when the command runs inside the server (admin socket); a CLI of its
   * own on PostgreSQL has one that only notifies, so the servers hear its changes.
   */
  events: EventBus;
  /**
   * What follows a command's commit: the server's own when the command runs inside the server
   * (admin socket); a CLI of its own has cliEffects (./effects.ts), which leaves the workers'
   * part to the servers' polls.
   */
  effects: Effects;
}

export interface Command<Flags extends z.ZodType = z.ZodType> {
  /** Words that select it, e.g. "user create". */
  name: string;
  usage: string;
  summary: string;
  /** Parses the `--flag value` pairs; a failure names the flag. */
  flags: Flags;
  run(ctx: CommandContext, flags: z.infer<Flags>): Promise<Record<string, unknown>>;
}

/** Keeps the flags' inferred type at the definition site. */
export const defineCommand = <F extends z.ZodType>(command: Command<F>): Command => command as unknown as Command;
