import type { Actor } from './auth.js';
import { forbidden } from '../../platform/errors.js';

type AccountAction = 'administer-users';

const rules: Record<AccountAction, (actor: Actor) => boolean> = {
  'administer-users': (actor) => actor.siteAdmin && actor.via === 'session',
};

/** Throws 403 unless the actor may do it. */
export function authorize(actor: Actor, action: AccountAction) {
  if (!rules[action](actor)) throw forbidden(`only site administrators may ${action.replace('-', ' ')}`);
}
