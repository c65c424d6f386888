import { z } from 'zod';
import { text } from '../platform/schemas.js';

export const priority = z.enum(['low', 'normal', 'high', 'urgent'], { message: 'must be one of low, normal, high, urgent' }).describe('Default normal.');
export const status = z.enum(['open', 'pending', 'solved', 'closed'], { message: 'must be one of open, pending, solved, closed' }).describe('Starts open.');

export const ticketCreate = z
  .strictObject({
    subject: text().trim().min(1, { message: 'must be 1-200 characters' }).max(200, { message: 'must be 1-200 characters' }).describe('1-200 characters.'),
    description: text().max(50_000, { message: 'must be at most 50000 characters' }).optional().describe('Up to 50,000 characters.'),
    priority: priority.optional(),
    requester: z
      .strictObject({
        email: z.string({ message: 'must be an e-mail address' }).trim().max(254, { message: 'must be at most 254 characters' }).email({ message: 'must be an e-mail address' }),
      }, { message: 'must be an object with an email' })
      .describe('Who asked.'),
    conversationId: z.string().max(40).optional().describe('An answer-API conversation of the same workspace (cnv_…), linked as context.'),
  })
  .meta({ id: 'TicketCreate', description: 'A new ticket.' });

export const ticketUpdate = z
  .strictObject({ status: status.optional(), priority: priority.optional() })
  .refine((v) => v.status !== undefined || v.priority !== undefined, { message: 'give status or priority' })
  .meta({ id: 'TicketUpdate', description: 'The fields of a ticket to change: status, priority or both.' });

export const ticket = z
  .object({
    id: z.number().int(),
    workspaceId: z.number().int(),
    subject: z.string(),
    description: z.string(),
    priority,
    status,
    requester: z.object({ email: z.string() }),
    conversationId: z.string().nullable(),
    createdAt: z.string().describe('ISO-8601 UTC.'),
    updatedAt: z.string().describe('ISO-8601 UTC.'),
  })
  .meta({ id: 'Ticket', description: 'A support ticket.' });
export type TicketView = z.infer<typeof ticket>;
