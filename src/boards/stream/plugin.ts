import fp from 'fastify-plugin';
import { StreamHub } from './hub.js';

declare module 'fastify' {
  interface FastifyInstance {
    /** The open board event streams. */
    streams: StreamHub;
  }
}

/** The stream hub: pings and access checks while the app runs; every stream closed on shutdown. */
export const streamsPlugin = fp<{ intervals?: { ping: number; accessCheck: number } }>(
  async (app, options) => {
    const hub = new StreamHub(app.events, options.intervals);
    app.decorate('streams', hub);
    app.addHook('onReady', async () => hub.start());
    // Changes other processes made while this one could not hear them were never delivered here:
    // streams are ended, and clients resume with Last-Event-ID, which replays them from the table.
    const stopListening = app.events.onReconnect(() => {
      for (const stream of [...hub.all()]) stream.close('event listener reconnected: resume with Last-Event-ID');
    });
    app.addHook('onClose', async () => stopListening());
    app.addHook('preClose', async () => hub.stop('server shutting down'));
  },
  { name: 'streams', dependencies: ['event-bus', 'db'] },
);
