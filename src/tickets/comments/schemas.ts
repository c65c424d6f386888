import { z } from 'zod';
import { text } from '../../platform/schemas.js';

export const ticketCommentCreate = z
  .strictObject({
    body: text().refine((v) => v.trim().length > 0, { message: 'must not be empty' }).refine((v) => v.length <= 20_000, { message: 'must be at most 20000 characters' })
      .describe('The reply, 1-20,000 characters of Markdown (shown to the customer as elements, never as HTML).'),
    public: z.boolean({ message: 'must be true or false' }).default(true)
      .describe('true (default): a reply the customer sees in the widget (else by mail); false: an internal note the customer never sees.'),
  })
  .meta({ id: 'TicketCommentCreate', description: 'A reply to the customer, or an internal note.' });

export const ticketComment = z
  .object({
    id: z.number().int(),
    ticketId: z.number().int(),
    body: z.string(),
    public: z.boolean(),
    author: z.enum(['team', 'requester']).describe('`team`: the console or a script; `requester`: the customer, from the widget.'),
    createdAt: z.string().describe('ISO-8601 UTC.'),
  })
  .meta({ id: 'TicketComment', description: 'A comment of a ticket.' });
export type TicketCommentView = z.infer<typeof ticketComment>;
