import type { Command } from './command.js';
import { dbMigrate } from './db-commands.js';

/** Every admin command. Later modules add theirs here: the list is the map. */
export const commands: Command[] = [dbMigrate];
