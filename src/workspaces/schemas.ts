import { z } from 'zod';
import { text } from '../platform/schemas.js';

export const workspaceName = text()
  .trim()
  .min(1, { message: 'must be 1-100 characters' })
  .max(100, { message: 'must be 1-100 characters' })
  .describe('Workspace name, 1-100 characters.');

export const workspaceRole = z
  .enum(['owner', 'admin', 'member'], { message: 'must be owner, admin or member' })
  .describe('owner and admin change settings, knowledge, agents and keys; member reads.');

export const workspace = z
  .object({
    id: z.number().int().describe('Workspace id.'),
    name: z.string().describe('Workspace name.'),
    role: workspaceRole.describe('The caller\'s role in it.'),
    conversationLimit: z.number().int().nullable().describe('New conversations allowed per calendar month (UTC); null = unlimited.'),
    createdAt: z.string().describe('ISO-8601 UTC.'),
  })
  .describe('Workspace');
export type WorkspaceView = z.infer<typeof workspace>;
