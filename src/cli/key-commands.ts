import { z } from 'zod';
import { createApiKey, expiryFrom } from '../accounts/keys/create-api-key.js';
import { findUserByEmail } from '../accounts/users/find-user.js';
import { listApiKeys } from '../accounts/keys/list-api-keys.js';
import { presentApiKey } from '../accounts/presenters.js';
import { revokeApiKey } from '../accounts/keys/revoke-api-key.js';
import * as s from '../accounts/schemas.js';
import { defineCommand } from './command.js';

const boardList = z
  .string({ message: 'must be a comma-separated list of board ids' })
  .regex(/^\d+(,\d+)*$/, { message: 'must be a comma-separated list of board ids' })
  .transform((v) => v.split(',').map(Number));

export const keyCreate = defineCommand({
  name: 'key create',
  usage: 'key create --email E --name N [--permission read|write] [--boards 1,2,…] [--expires never|30d|90d|1y | --expires-at ISO]',
  summary: 'create a personal API key (same rules as the web app) and print its token once',
  flags: z
    .strictObject({
      email: s.email,
      name: z.string({ message: 'is required' }),
      permission: s.keyPermission.optional(),
      boards: boardList.optional(),
      expires: s.expiresIn.optional(),
      expiresAt: z.iso.datetime({ offset: true, message: 'must be an ISO-8601 date-time' }).optional(),
    })
    .refine((f) => !(f.expires && f.expiresAt), { message: 'give --expires or --expires-at, not both', path: ['expires'] }),
  run: async ({ db }, f) => {
    const user = await findUserByEmail({ db: db.prisma, email: f.email });
    const { key, token } = await createApiKey({
      db: db.prisma,
      userId: user.id,
      name: f.name,
      permission: f.permission,
      boardIds: f.boards ?? null,
      expiresAt: f.expiresAt ? new Date(f.expiresAt) : expiryFrom(f.expires ?? 'never'),
    });
    const view = presentApiKey(key);
    return { id: view.id, token, prefix: view.prefix, permission: view.permission, boards: view.boards, expiresAt: view.expiresAt };
  },
});

export const keyRevoke = defineCommand({
  name: 'key revoke',
  usage: 'key revoke --email E --id K',
  summary: 'revoke one of a user\'s keys',
  flags: z.strictObject({ email: s.email, id: z.coerce.number({ message: 'must be a key id' }).int().positive() }),
  run: async ({ db }, f) => {
    const user = await findUserByEmail({ db: db.prisma, email: f.email });
    const key = await revokeApiKey({ db: db.prisma, userId: user.id, keyId: f.id });
    return { id: key.id, revokedAt: key.revokedAt!.toISOString() };
  },
});

export const keyList = defineCommand({
  name: 'key list',
  usage: 'key list --email E',
  summary: "list a user's API keys, revoked and expired ones too, newest first (never their tokens)",
  flags: z.strictObject({ email: s.email }),
  run: async ({ db }, f) => {
    const user = await findUserByEmail({ db: db.prisma, email: f.email });
    const keys = await listApiKeys({ db: db.prisma, userId: user.id });
    return { keys: keys.map(presentApiKey) };
  },
});
