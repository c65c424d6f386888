import fp from 'fastify-plugin';
import type { Database } from '../db.js';

declare module 'fastify' {
  interface FastifyInstance {
    /** The database every module's domain calls receive. */
    db: Database;
  }
}

/** Exposes the database to routes; closes it with the app when the app owns it. */
export const dbPlugin = fp<{ db: Database; owned: boolean }>(
  async (app, { db, owned }) => {
    app.decorate('db', db);
    if (owned) app.addHook('onClose', async () => db.close());
  },
  { name: 'db' },
);
