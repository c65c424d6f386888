import { z } from 'zod';
import { findUserByEmail } from '../accounts/users/find-user.js';
import { listUsers } from '../accounts/users/list-users.js';
import * as s from '../accounts/schemas.js';
import { setUserStatus } from '../accounts/users/set-user-status.js';
import { setUserEmail } from '../accounts/email/set-user-email.js';
import { createSetupLink } from '../accounts/join/create-setup-link.js';
import { createUserWithInvitations } from '../boards/members/sign-up.js';
import { afterUserChange } from '../boards/activity/change-board.js';
import type { Effects } from '../platform/after-commit.js';
import { defineCommand } from './command.js';
import { publicOrigin } from '../platform/http/public-origin.js';

const flag = z.literal(true, { message: 'takes no value' });

/**
 * What follows a change to a user's name or address, as in the server: the boards' one owner
 * (afterUserChange). Run inside a server (admin socket), its cached boards go at once; a CLI of
 * its own keeps none, and the servers hear the change from its own commit
 * (boards/sql/user-changed.sql), so nothing here is optional.
 */
const userChanged = (effects: Effects) => afterUserChange(effects);

export const userCreate = defineCommand({
  name: 'user create',
  usage: 'user create --email E --password P [--name N] [--admin]',
  summary: 'create a user (--admin: a site administrator)',
  flags: z.strictObject({ email: s.email, password: s.password, name: s.userName.optional(), admin: flag.optional() }),
  run: async ({ db, events, effects }, f) => {
    const user = await createUserWithInvitations({ db: db.prisma, email: f.email, password: f.password, name: f.name, siteAdmin: f.admin === true, events, effects });
    return { id: user.id, email: user.email, name: user.name };
  },
});

const byEmail = z.strictObject({ email: s.email });

function statusCommand(verb: 'block' | 'unblock' | 'delete', status: 'blocked' | 'active' | 'deleted', summary: string) {
  return defineCommand({
    name: `user ${verb}`,
    usage: `user ${verb} --email E`,
    summary,
    flags: byEmail,
    run: async ({ db, effects }, f) => {
      const user = await findUserByEmail({ db: db.prisma, email: f.email });
      // A deleted user's address changes on every board they belong to: see userChanged.
      const updated = await setUserStatus({ db: db.prisma, userId: user.id, status, userChanged: userChanged(effects) });
      return { id: updated.id, status: updated.status };
    },
  });
}

export const userSetEmail = defineCommand({
  name: 'user set-email',
  usage: 'user set-email --email E --new-email N',
  summary: "change a user's e-mail address at once (no confirmation mail: on a server without SMTP, the only way)",
  flags: z.strictObject({ email: s.email, newEmail: s.email }),
  run: async ({ db, effects }, f) => {
    const user = await findUserByEmail({ db: db.prisma, email: f.email });
    const updated = await setUserEmail({ db: db.prisma, userId: user.id, email: f.newEmail, userChanged: userChanged(effects) });
    return { id: updated.id, email: updated.email };
  },
});

export const userResetLink = defineCommand({
  name: 'user reset-link',
  usage: 'user reset-link --email E',
  summary: 'print a link with which the user sets a new password (their sessions end when they use it); for servers without mail, or a lost mail',
  flags: byEmail,
  run: async ({ db, config }, f) => {
    const user = await findUserByEmail({ db: db.prisma, email: f.email });
    const link = await createSetupLink({ db: db.prisma, userId: user.id });
    // The CLI has no request to take an origin from: PUBLIC_BASE_URL, else where this server listens.
    const origin = publicOrigin(config);
    return { url: `${origin}/join/${link.token}`, expiresAt: link.expiresAt.toISOString() };
  },
});

export const userBlock = statusCommand('block', 'blocked', 'block a user: sessions end, keys stop working');
export const userUnblock = statusCommand('unblock', 'active', 'unblock a user');
export const userDelete = statusCommand('delete', 'deleted', 'delete a user: every credential stops; the name stays in history');

export const userList = defineCommand({
  name: 'user list',
  usage: 'user list',
  summary: 'list every account (blocked and deleted ones too), oldest first',
  flags: z.strictObject({}),
  run: async ({ db }) => {
    const users = await listUsers(db.prisma);
    return {
      users: users.map((u) => ({ id: u.id, email: u.email, name: u.name, siteAdmin: u.siteAdmin, status: u.status, createdAt: u.createdAt.toISOString() })),
    };
  },
});
