import { type CreateUserOptions, createUser, type SignUp } from '../../accounts/users/create-user.js';
import type { PrismaClient } from '../../platform/db.js';
import { changeBoard } from '../activity/change-board.js';
import { EventBus } from '../activity/event-bus.js';
import type { Outbox } from '../../webhooks/outbox.js';
import { acceptInvitations } from './accept-invitations.js';

/**
 * The boards' part of a sign-up: the new user becomes a member of the boards its address was
 * invited to, in the user's own transaction, announced on those boards (after the commit, on
 * `events` and to board webhooks through `outbox`, when given) and attributed to the user.
 */
export function acceptInvitationsOnSignUp({ db, events, outbox }: { db: PrismaClient; events: EventBus; outbox?: Outbox | undefined }): SignUp {
  return (create) =>
    changeBoard({ db, events, outbox, actor: null }, async (tx, record) => {
      const user = await create(tx);
      await acceptInvitations(tx, (input) => record({ ...input, actor: user }), user);
      return user;
    });
}

/**
 * A new active user, a member of the boards its address was invited to; 409 when the address is
 * taken. Without `events` (a script or a test's factory, outside any server) a bus of its own is
 * used: nothing in this process listens, and no other process is told.
 */
export function createUserWithInvitations({ events, outbox, ...options }: Omit<CreateUserOptions, 'signUp'> & { events?: EventBus | undefined; outbox?: Outbox | undefined }) {
  return createUser({ ...options, signUp: acceptInvitationsOnSignUp({ db: options.db, events: events ?? new EventBus(), outbox }) });
}
