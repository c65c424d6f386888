import type { FastifyInstance } from 'fastify';

/**
 * On close, Node's server waits for every open connection. A keep-alive connection whose request
 * was in flight when closing began would stay open (and close() hang) until the client's idle
 * timeout, so responses sent while closing say `Connection: close`.
 */
export function registerGracefulClose(app: FastifyInstance) {
  let closing = false;
  app.addHook('preClose', async () => {
    closing = true;
  });
  app.addHook('onSend', async (_request, reply) => {
    if (closing) reply.header('connection', 'close');
  });
}
