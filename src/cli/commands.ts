import type { Command } from './command.js';
import { dbMigrate } from './db-commands.js';
import { boardList } from './board-commands.js';
import { boardExport, boardExportAll, boardImport } from './board-transfer-commands.js';
import { keyCreate, keyList, keyRevoke } from './key-commands.js';
import { agentCreate, agentUpdate, answerKeyCreate, answerKeyRevoke, knowledgeAdd, knowledgeImport, knowledgeRemove } from './answer-commands.js';
import { workspaceCreate, workspaceLimit, workspaceSet, workspaceToken } from './workspace-commands.js';
import { webhookCreate, webhookDeliveries, webhookDelete, webhookList, webhookRedeliver, webhookRotateSecret, webhookUpdate } from './webhook-commands.js';
import { widgetCreate, widgetDelete, widgetList, widgetUpdate } from './widget-commands.js';
import { userBlock, userCreate, userDelete, userList, userResetLink, userSetEmail, userUnblock } from './user-commands.js';

/** Every admin command. Later modules add theirs here: the list is the map. */
export const commands: Command[] = [
  dbMigrate, userCreate, userList, userSetEmail, userResetLink, userBlock, userUnblock, userDelete, keyCreate, keyList, keyRevoke, boardList,
  boardImport, boardExport, boardExportAll,
  workspaceCreate, workspaceLimit, workspaceSet, workspaceToken, answerKeyCreate, answerKeyRevoke, agentCreate, agentUpdate,
  knowledgeAdd, knowledgeImport, knowledgeRemove,
  webhookCreate, webhookList, webhookUpdate, webhookRotateSecret, webhookDelete, webhookDeliveries, webhookRedeliver,
  widgetCreate, widgetList, widgetUpdate, widgetDelete,
];
