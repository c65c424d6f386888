import { readFile } from 'node:fs/promises';
import { z } from 'zod';
import { createAgent } from '../answers/agents/create-agent.js';
import { updateAgent } from '../answers/agents/update-agent.js';
import { createAnswerKey } from '../answers/keys/create-answer-key.js';
import { revokeAnswerKey } from '../answers/keys/revoke-answer-key.js';
import { removeArticle } from '../answers/knowledge/remove-article.js';
import { importArticles, upsertArticle } from '../answers/knowledge/upsert-article.js';
import { knowledgeLimits } from '../answers/knowledge/knowledge-limits.js';
import * as s from '../answers/schemas.js';
import { unsafeFindWorkspace } from '../workspaces/access.js';
import { defineCommand } from './command.js';
import { workspaceFlag } from './workspace-commands.js';

const flag = z.literal(true, { message: 'takes no value' });
const boolText = z.enum(['true', 'false'], { message: 'must be true or false' }).transform((v) => v === 'true');

export const answerKeyCreate = defineCommand({
  name: 'answer-key create',
  usage: 'answer-key create --workspace W --name N',
  summary: 'create an answer-API key (ans_…) for a workspace and print its token once',
  flags: z.strictObject({ workspace: workspaceFlag, name: z.string({ message: 'is required' }) }),
  run: async ({ db }, f) => {
    await unsafeFindWorkspace({ db: db.prisma, workspaceId: f.workspace });
    const { key, token } = await createAnswerKey({ db: db.prisma, workspaceId: f.workspace, name: f.name });
    return { id: key.id, token, prefix: key.prefix };
  },
});

export const answerKeyRevoke = defineCommand({
  name: 'answer-key revoke',
  usage: 'answer-key revoke --workspace W --id K',
  summary: 'revoke an answer-API key (it stops at once)',
  flags: z.strictObject({ workspace: workspaceFlag, id: z.coerce.number({ message: 'must be a key id' }).int().positive().max(2_147_483_647) }),
  run: async ({ db }, f) => {
    const key = await revokeAnswerKey({ db: db.prisma, workspaceId: f.workspace, keyId: f.id });
    return { id: key.id, revokedAt: key.revokedAt!.toISOString() };
  },
});

export const agentCreate = defineCommand({
  name: 'agent create',
  usage: 'agent create --workspace W --name N [--default] [--fallback-message T] [--referral T] [--attachment-fallback answer|needs_human] [--unpublished]',
  summary: 'create a published agent (the first one of a workspace is its default)',
  flags: z.strictObject({
    workspace: workspaceFlag,
    name: s.agentName,
    default: flag.optional(),
    fallbackMessage: s.fallbackMessage.optional(),
    referral: s.referralText.optional(),
    attachmentFallback: s.attachmentFallback.optional(),
    unpublished: flag.optional(),
  }),
  run: async ({ db }, f) => {
    await unsafeFindWorkspace({ db: db.prisma, workspaceId: f.workspace });
    const agent = await createAgent({
      db: db.prisma,
      workspaceId: f.workspace,
      input: {
        name: f.name,
        isDefault: f.default ? true : undefined,
        fallbackMessage: f.fallbackMessage,
        referralText: f.referral,
        attachmentFallback: f.attachmentFallback,
        published: !f.unpublished,
      },
    });
    return { id: agent.id, name: agent.name, default: agent.isDefault };
  },
});

export const agentUpdate = defineCommand({
  name: 'agent update',
  usage: 'agent update --workspace W --id A [--name N] [--default] [--published true|false] [--fallback-message T] [--referral T] [--attachment-fallback answer|needs_human]',
  summary: 'change an agent (--default makes it the workspace\'s default)',
  flags: z.strictObject({
    workspace: workspaceFlag,
    id: z.string({ message: 'must be an agent id' }),
    name: s.agentName.optional(),
    default: flag.optional(),
    published: boolText.optional(),
    fallbackMessage: s.fallbackMessage.optional(),
    referral: s.referralText.optional(),
    attachmentFallback: s.attachmentFallback.optional(),
  }),
  run: async ({ db }, f) => {
    const agent = await updateAgent({
      db: db.prisma,
      workspaceId: f.workspace,
      agentId: f.id,
      changes: {
        name: f.name,
        isDefault: f.default ? true : undefined,
        published: f.published,
        fallbackMessage: f.fallbackMessage,
        referralText: f.referral,
        attachmentFallback: f.attachmentFallback,
      },
    });
    return { id: agent.id, name: agent.name, default: agent.isDefault, published: agent.published };
  },
});

export const knowledgeAdd = defineCommand({
  name: 'knowledge add',
  usage: 'knowledge add --workspace W --external-id X --title T --body B [--url U]',
  summary: 'add or replace one article (by external id); the next answer uses it',
  flags: z.strictObject({ workspace: workspaceFlag, externalId: s.externalId, ...s.articleFields }),
  run: async ({ db, config }, f) => {
    await unsafeFindWorkspace({ db: db.prisma, workspaceId: f.workspace });
    const { article } = await upsertArticle({ db: db.prisma, workspaceId: f.workspace, article: f, limits: knowledgeLimits(config) });
    return { id: article.id, externalId: article.externalId };
  },
});

export const knowledgeImport = defineCommand({
  name: 'knowledge import',
  usage: 'knowledge import --workspace W --file F',
  summary: 'add or replace the articles of a JSON file: an array of {externalId, title, body, url?} (all or none)',
  flags: z.strictObject({ workspace: workspaceFlag, file: z.string({ message: 'must be a file path' }) }),
  run: async ({ db, config }, f) => {
    await unsafeFindWorkspace({ db: db.prisma, workspaceId: f.workspace });
    let json: unknown;
    try {
      json = JSON.parse(await readFile(f.file, 'utf8'));
    } catch (error) {
      throw new Error(`--file: ${(error as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such file' : `not readable JSON (${(error as Error).message})`}`);
    }
    const parsed = s.articleImport.safeParse(json);
    if (!parsed.success) {
      const issue = parsed.error.issues[0]!;
      throw new Error(`--file: ${issue.path.length ? `[${issue.path.join('].').replace(/\]\.(\d+)/g, '][$1')}: ` : ''}${issue.message}`);
    }
    const { imported } = await importArticles({ db: db.prisma, workspaceId: f.workspace, articles: parsed.data, limits: knowledgeLimits(config) });
    return { imported };
  },
});

export const knowledgeRemove = defineCommand({
  name: 'knowledge remove',
  usage: 'knowledge remove --workspace W --external-id X',
  summary: 'delete one article; the next answer no longer uses it',
  flags: z.strictObject({ workspace: workspaceFlag, externalId: s.externalId }),
  run: async ({ db }, f) => {
    await removeArticle({ db: db.prisma, workspaceId: f.workspace, externalId: f.externalId });
    return { externalId: f.externalId, removed: true };
  },
});
