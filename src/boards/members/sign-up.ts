import { type CreateUserOptions, createUser, type SignUp } from '../../accounts/users/create-user.js';
import type { PrismaClient } from '../../platform/db.js';
import { changeBoard } from '../activity/change-board.js';
import type { EventBus } from '../activity/event-bus.js';
import type { Effects } from '../../platform/after-commit.js';
import { acceptInvitations } from './accept-invitations.js';

/**
 * The boards' part of a sign-up: the new user becomes a member of the boards its address was
 * invited to, in the user's own transaction, announced on those boards (to the other processes
 * on `events`, in the transaction; after the commit through `effects`) and attributed to the user.
 */
export function acceptInvitationsOnSignUp({ db, events, effects }: { db: PrismaClient; events: EventBus; effects: Effects }): SignUp {
  return (create) =>
    changeBoard({ db, events, effects, actor: null }, async (tx, record) => {
      const user = await create(tx);
      await acceptInvitations(tx, (input) => record({ ...input, actor: user }), user);
      return user;
    });
}

/**
 * A new active user, a member of the boards its address was invited to; 409 when the address is
 * taken. The bus and the effects are the server's, or the admin CLI's own (src/cli/effects.ts).
 */
export function createUserWithInvitations({ events, effects, ...options }: Omit<CreateUserOptions, 'signUp'> & { events: EventBus; effects: Effects }) {
  return createUser({ ...options, signUp: acceptInvitationsOnSignUp({ db: options.db, events, effects }) });
}
