import type { Command } from './command.js';
import { dbMigrate } from './db-commands.js';
import { keyCreate, keyRevoke } from './key-commands.js';
import { userBlock, userCreate, userDelete, userUnblock } from './user-commands.js';

/** Every admin command. Later modules add theirs here: the list is the map. */
export const commands: Command[] = [dbMigrate, userCreate, userBlock, userUnblock, userDelete, keyCreate, keyRevoke];
