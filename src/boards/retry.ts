import { conflict, isDatabaseConflict } from '../platform/errors.js';

/** Returned from a transaction whose rows moved under it: nothing was written; read again. */
export const RETRY = Symbol('retry');

/**
 * Runs `attempt` again while it answers RETRY (something moved meanwhile) or loses a deadlock or
 * write conflict to a concurrent request; 409 after three tries.
 */
export async function withRetry<T>(attempt: () => Promise<T | typeof RETRY>): Promise<T> {
  for (let i = 0; i < 3; i++) {
    try {
      const result = await attempt();
      if (result !== RETRY) return result;
    } catch (error) {
      if (!isDatabaseConflict(error) || i === 2) throw error;
    }
  }
  throw conflict('a concurrent request changed the same thing; try again');
}
