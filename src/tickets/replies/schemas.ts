import { z } from 'zod';
import { text } from '../../platform/schemas.js';

export const ratingCreate = z
  .strictObject({
    score: z.number({ message: 'must be a whole number from 1 to 5' }).int({ message: 'must be a whole number from 1 to 5' }).min(1, { message: 'must be a whole number from 1 to 5' }).max(5, { message: 'must be a whole number from 1 to 5' })
      .describe('1 (poor) to 5 (great).'),
    comment: text().max(2000, { message: 'must be at most 2000 characters' }).optional().describe('Optional, up to 2,000 characters.'),
  })
  .meta({ id: 'RatingCreate', description: '"How did we do?": once per ticket, after it is solved.' });

export const rating = z
  .object({ ticketId: z.number().int(), score: z.number().int(), comment: z.string() })
  .meta({ id: 'Rating', description: 'The customer\'s rating of a solved ticket.' });

export const replyThread = z
  .object({
    ticket: z.object({ id: z.number().int(), subject: z.string(), status: z.enum(['open', 'pending', 'solved', 'closed']) }),
    team: z.string().describe('The workspace\'s name: who answers.'),
    entries: z.array(z.object({
      from: z.enum(['customer', 'agent', 'team']),
      body: z.string().describe('Markdown for the agent and the team (render it as elements, never as HTML), plain text for the customer.'),
      at: z.string().describe('ISO-8601 UTC.'),
    })).describe('Oldest first; never an internal note.'),
    rated: z.boolean().describe('Whether the customer rated the ticket already (asked once it is solved).'),
  })
  .meta({ id: 'ReplyThread', description: 'A ticket as its customer sees it on the page a reply mail links to.' });

export const replyAnswer = z
  .strictObject({
    body: text().refine((v) => v.trim().length > 0, { message: 'must not be empty' }).refine((v) => v.length <= 4000, { message: 'must be at most 4000 characters' })
      .describe('The customer\'s answer, 1-4000 characters (plain text).'),
  })
  .meta({ id: 'ReplyAnswer', description: 'The customer\'s answer on the reply page: a comment by the requester, which sets the ticket back to open.' });

export const supportMetrics = z
  .object({
    from: z.string(),
    to: z.string(),
    conversations: z.object({
      total: z.number().int().describe('Conversations started in the range.'),
      resolvedByAgent: z.number().int().describe('Not handed to a person, and the agent never said a person was needed.'),
      handedToPerson: z.number().int().describe('Handed to a person: a ticket.'),
      solvedWithPerson: z.number().int().describe('Of those, the tickets now solved or closed.'),
    }),
    satisfaction: z.object({
      ratings: z.number().int().describe('"How did we do?" answers given in the range.'),
      average: z.number().nullable().describe('1-5, two decimals; null without ratings.'),
      byScore: z.array(z.object({ score: z.number().int(), count: z.number().int() })).describe('Each score 1-5 and how many gave it.'),
    }),
  })
  .meta({ id: 'SupportMetrics', description: 'Resolved by the agent alone versus with a person, and satisfaction.' });
