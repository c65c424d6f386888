import type { PrismaClient } from '../../platform/db.js';
import { conflict } from '../../platform/errors.js';
import { forgetCredentials } from '../credentials/credential-cache.js';
import { createUser, type SignUp } from '../users/create-user.js';
import { findJoinLink } from './find-join-link.js';
import { hashPassword } from '../credentials/passwords.js';
import { hashToken } from '../credentials/tokens.js';
import type { UserChanged } from '../users/user-changed.js';

export interface AcceptJoinLinkOptions {
  db: PrismaClient;
  /** What other modules do on sign-up (app.ts hands in the boards' invitations). */
  signUp?: SignUp | undefined;
  /** Told after a set-up link renamed its user (the boards' cached member lists). */
  /** Required: what other modules drop when a user changes (the board cache); a caller cannot forget it. */
  userChanged: UserChanged;
  token: string;
  name: string;
  password: string;
}

/**
 * Uses an invitation or set-up link: an invitation makes the account (a member of every board
 * its address was invited to, as a registration would) and returns the board to land on; a
 * set-up link sets the user's name and password and ends their sessions. The link is used up
 * either way. 404/410 as findJoinLink; 409 when the invited address has an account by now.
 */
export async function acceptJoinLink({ db, signUp, userChanged, token, name, password }: AcceptJoinLinkOptions) {
  const link = await findJoinLink({ db, token });
  if (link.kind === 'invitation') {
    const taken = await db.user.findUnique({ where: { email: link.email }, select: { id: true } });
    if (taken) throw conflict(`email: ${link.email} already has an account; sign in with it instead`);
    // signUp accepts (and deletes) the address's invitations, this one included.
    const user = await createUser({ db, signUp, email: link.email, name, password });
    return { user, boardId: link.board.id as number | null };
  }
  const passwordHash = await hashPassword(password);
  const user = await db.$transaction(async (tx) => {
    // Deleted first, so two tabs using one link cannot both set a password.
    const { count } = await tx.accountSetupLink.deleteMany({ where: { tokenHash: hashToken(token) } });
    if (count === 0) throw conflict('link: already used');
    // The password is chosen now: the user's other link (set-up or reset) has nothing left to do.
    await tx.accountSetupLink.deleteMany({ where: { userId: link.userId } });
    await tx.session.deleteMany({ where: { userId: link.userId } });
    return tx.user.update({ where: { id: link.userId }, data: { name, passwordHash } });
  });
  forgetCredentials(db);
  await userChanged(user.id);
  return { user, boardId: null };
}
