import { z } from 'zod';
import { text } from '../platform/schemas.js';
import { normalizeOrigin } from './origins.js';

export const widgetId = z.string().max(40).describe('Widget id (`wdg_…`).');

export const origin = z.string({ message: 'must be an origin such as https://shop.example.com' }).max(300, { message: 'must be at most 300 characters' })
  .transform((v, ctx) => {
    const parsed = normalizeOrigin(v);
    if ('error' in parsed) {
      ctx.addIssue({ code: 'custom', message: parsed.error });
      return z.NEVER;
    }
    return parsed.origin;
  })
  .describe('`https://shop.example.com` (exact) or `https://*.example.com` (its subdomains).');

/** The settings a widget is created or changed with; every one optional but the origins at creation. */
export const widgetSettingsFields = {
  /** Where the widget may be embedded: 1-20 origins. */
  origins: z.array(origin, { message: 'must be an array of origins' }).min(1, { message: 'give at least one origin' }).max(20, { message: 'at most 20 origins' })
    .describe('Where the widget may be embedded: 1-20 origins, exact or `https://*.example.com`.'),
  /** `#rrggbb`. */
  color: z.string().regex(/^#[0-9a-fA-F]{6}$/, { message: 'must be a colour as #rrggbb' }).transform((v) => v.toLowerCase()).describe('The launcher\'s colour, `#rrggbb`.'),
  /** The first line the panel shows. */
  greeting: text().trim().min(1, { message: 'must be 1-500 characters' }).max(500, { message: 'must be 1-500 characters' }).describe('The first line the panel shows, 1-500 characters (plain text).'),
  /** The panel's title. */
  teamName: text().trim().min(1, { message: 'must be 1-100 characters' }).max(100, { message: 'must be 1-100 characters' }).describe('The panel\'s title, 1-100 characters.'),
  /** Which corner the launcher sits in. */
  launcherSide: z.enum(['left', 'right'], { message: 'must be left or right' }).describe('Which bottom corner the launcher sits in.'),
  /** Whether visitors may attach images and PDFs. */
  attachmentsAllowed: z.boolean({ message: 'must be true or false' }).describe('Whether visitors may attach images and PDFs (5 a message).'),
  /** Said once a conversation is handed to a person. */
  handoffText: text().trim().min(1, { message: 'must be 1-500 characters' }).max(500, { message: 'must be 1-500 characters' }).describe('Said once a conversation is handed to a person, 1-500 characters.'),
  /** Refuse visitors whose identity is not signed. */
  verificationRequired: z.boolean({ message: 'must be true or false' }).describe('Refuse visitors whose identity the host site did not sign with the identity secret.'),
};

/** Every setting, each optional: what an update may change, and what a creation may leave to its default. */
const optionalSettings = z.strictObject(widgetSettingsFields).partial();

export const widgetCreate = optionalSettings
  .extend({
    agentId: z.string().max(40).describe('The agent that answers (`agt_…`).'),
    origins: widgetSettingsFields.origins,
  })
  .meta({ id: 'WidgetCreate', description: 'A new widget of an agent.' });
export type WidgetCreate = z.infer<typeof widgetCreate>;

export const widgetUpdate = optionalSettings.meta({ id: 'WidgetUpdate', description: 'The settings of a widget to change.' });
export type WidgetUpdate = z.infer<typeof widgetUpdate>;

export const widget = z
  .object({
    id: z.string().describe('`wdg_…`: public, it goes in the snippet.'),
    workspaceId: z.number().int(),
    agentId: z.string(),
    origins: z.array(z.string()),
    color: z.string(),
    greeting: z.string(),
    teamName: z.string(),
    launcherSide: z.enum(['left', 'right']),
    attachmentsAllowed: z.boolean(),
    handoffText: z.string(),
    verificationRequired: z.boolean(),
    /** The tag to paste into the site's pages. */
    snippet: z.string().describe('The tag to paste into the site\'s pages.'),
    createdAt: z.string().describe('ISO-8601 UTC.'),
    updatedAt: z.string().describe('ISO-8601 UTC.'),
  })
  .meta({ id: 'Widget', description: 'An embeddable help widget (its identity secret is shown once, at creation).' });
export type WidgetView = z.infer<typeof widget>;

export const createdWidget = widget
  .extend({ identitySecret: z.string().describe('The identity-verification secret (`wis_…`), shown this once: keep it on the host site\'s server.') })
  .meta({ id: 'CreatedWidget', description: 'A new widget, with its identity secret (shown once).' });

// ---- the public surface (the widget script, from the host page) ----

export const publicWidget = z
  .object({
    id: z.string(),
    color: z.string(),
    greeting: z.string(),
    teamName: z.string(),
    launcherSide: z.enum(['left', 'right']),
    attachmentsAllowed: z.boolean(),
    handoffText: z.string(),
    verificationRequired: z.boolean(),
  })
  .meta({ id: 'PublicWidget', description: 'What the widget script needs to draw itself.' });

export const visitorStart = z
  .strictObject({
    identity: z
      .strictObject({
        userId: text().min(1, { message: 'must be 1-200 characters' }).max(200, { message: 'must be 1-200 characters' })
          .refine((v) => !/[\r\n]/.test(v), { message: 'must not hold a line break' }).describe('The host site\'s id of its signed-in user.'),
        email: z.string({ message: 'must be an e-mail address' }).trim().max(254).email({ message: 'must be an e-mail address' }).describe('Their e-mail address.'),
        signature: z.string().max(200).describe('Hex HMAC-SHA256 of `userId + "\\n" + email` with the widget\'s identity secret, computed by the host site\'s server.'),
      })
      .optional()
      .describe('The signed-in user, signed by the host site\'s server (identity verification).'),
  })
  .meta({ id: 'VisitorStart', description: 'A new visitor of the widget.' });

export const visitorToken = z
  .object({
    token: z.string().describe('The visitor token (`wvt_…`): send it as `Authorization: Bearer wvt_…`. Shown once; kept by the widget in the host page\'s localStorage.'),
    expiresAt: z.string().describe('ISO-8601 UTC: 30 days from now.'),
    verified: z.boolean().describe('Whether the identity was verified.'),
  })
  .meta({ id: 'VisitorToken', description: 'An anonymous (or verified) visitor of a widget.' });

export const widgetMessageSource = z.object({ title: z.string(), url: z.string().nullable().describe('The article\'s URL, when it has one.') });

export const widgetAsk = z
  .strictObject({
    message: text().refine((v) => v.trim().length > 0, { message: 'must not be empty' }).refine((v) => v.length <= 4000, { message: 'must be at most 4000 characters' })
      .describe('The visitor\'s message, 1-4000 characters.'),
    conversationId: z.string().max(40).optional().describe('Continue this conversation of the visitor (`cnv_…`); absent, a new one starts.'),
    attachments: z.array(z.strictObject({
      mime: z.string().max(127).describe('image/* or application/pdf.'),
      contentBase64: z.string().min(1).describe('The file, base64.'),
      filename: text().min(1).max(255).optional(),
    }), { message: 'must be an array of attachments' }).max(5, { message: 'at most 5 attachments' }).optional()
      .describe('Up to 5 images or PDFs, read as POST /v1/answer reads them.'),
  })
  .meta({ id: 'WidgetAsk', description: 'A visitor\'s message to the agent.' });
export type WidgetAskInput = z.infer<typeof widgetAsk>;

export const widgetReply = z
  .object({
    conversationId: z.string(),
    message: z.string().describe('The reply, in Markdown (render it as elements, never as HTML).'),
    sources: z.array(widgetMessageSource).describe('The articles the reply used, by title.'),
    needs_human: z.boolean().describe('The agent could not resolve it: offer the hand-off.'),
    forwarded: z.boolean().describe('The conversation is with the team (handed off): the message went to its ticket, and `message` is empty.'),
  })
  .meta({ id: 'WidgetReply', description: 'The agent\'s reply in the widget.' });

export const widgetEntry = z
  .object({
    id: z.number().int().optional().describe('The ticket comment\'s id, for the team\'s replies and the visitor\'s answers after the hand-off.'),
    from: z.enum(['visitor', 'agent', 'team']).describe('Who wrote it.'),
    body: z.string().describe('Markdown for the agent and the team, plain text for the visitor.'),
    sources: z.array(widgetMessageSource),
    needs_human: z.boolean(),
    at: z.string().describe('ISO-8601 UTC.'),
  });

export const widgetConversation = z
  .object({
    id: z.string(),
    ticketId: z.number().int().nullable().describe('The ticket of its hand-off, if any.'),
    ticketStatus: z.enum(['open', 'pending', 'solved', 'closed']).nullable().describe('Its status: once solved (and not rated) the widget asks "How did we do?".'),
    rated: z.boolean().describe('Whether the visitor rated the ticket already (once per ticket).'),
    entries: z.array(widgetEntry).describe('Oldest first.'),
    updatedAt: z.string(),
  })
  .meta({ id: 'WidgetConversation', description: 'A conversation of the visitor, as the widget shows it.' });

export const widgetHandoff = z
  .strictObject({
    conversationId: z.string().max(40).describe('The conversation handed to a person.'),
    email: z.string({ message: 'must be an e-mail address' }).trim().max(254, { message: 'must be at most 254 characters' }).email({ message: 'must be an e-mail address' }).optional()
      .describe('Where the team answers; not needed (and ignored) for a verified visitor.'),
    subject: text().trim().max(200, { message: 'must be at most 200 characters' }).optional().describe('Default: the first message, cut to 200 characters.'),
  })
  .meta({ id: 'WidgetHandoff', description: 'Hand the conversation to a person: a ticket.' });

export const widgetTicket = z
  .object({ ticketId: z.number().int(), status: z.string(), email: z.string() })
  .meta({ id: 'WidgetTicket', description: 'The ticket the hand-off opened (the same one on a second click).' });
