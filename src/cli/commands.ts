import type { Command } from './command.js';
import { dbMigrate } from './db-commands.js';
import { keyCreate, keyRevoke } from './key-commands.js';
import { agentCreate, agentUpdate, answerKeyCreate, answerKeyRevoke, knowledgeAdd, knowledgeImport, knowledgeRemove } from './answer-commands.js';
import { workspaceCreate, workspaceLimit, workspaceToken } from './workspace-commands.js';
import { webhookCreate, webhookDeliveries, webhookDelete, webhookList, webhookRedeliver, webhookRotateSecret, webhookUpdate } from './webhook-commands.js';
import { userBlock, userCreate, userDelete, userUnblock } from './user-commands.js';

/** Every admin command. Later modules add theirs here: the list is the map. */
export const commands: Command[] = [
  dbMigrate, userCreate, userBlock, userUnblock, userDelete, keyCreate, keyRevoke,
  workspaceCreate, workspaceLimit, workspaceToken, answerKeyCreate, answerKeyRevoke, agentCreate, agentUpdate,
  knowledgeAdd, knowledgeImport, knowledgeRemove,
  webhookCreate, webhookList, webhookUpdate, webhookRotateSecret, webhookDelete, webhookDeliveries, webhookRedeliver,
];
