import { chmodSync, unlinkSync } from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import type { CommandContext } from './command.js';
import { type CommandOutcome, runCommand } from './run-command.js';

/** An admin command line is small; anything bigger is not one. */
const MAX_REQUEST_BYTES = 64 * 1024;

/** Unix socket paths are limited to about 107 bytes. */
const MAX_SOCKET_PATH = 100;

export const adminSocketPath = (dataDir: string) => path.join(dataDir, 'admin.sock');

/**
 * The embedded database lives inside the server process, so while the server runs the admin CLI
 * sends its command here and the server runs it on the same database. The socket is owner-only
 * (0600) in DATA_DIR: whoever may read the data may administer it, nobody else.
 */
export async function startAdminSocket(ctx: CommandContext): Promise<{ close(): Promise<void> } | null> {
  const file = adminSocketPath(ctx.config.dataDir);
  if (file.length > MAX_SOCKET_PATH) return null;
  try {
    unlinkSync(file); // left by a previous run: we hold the data directory lock now
  } catch {
    // none there
  }
  const open = new Set<net.Socket>();
  const server = net.createServer((socket) => {
    open.add(socket);
    socket.on('close', () => open.delete(socket));
    let input = '';
    let handled = false;
    socket.setEncoding('utf8');
    socket.on('data', async (chunk) => {
      if (handled) return;
      input += chunk;
      if (input.length > MAX_REQUEST_BYTES) {
        handled = true;
        socket.end(`${JSON.stringify({ exitCode: 1, body: { error: 'admin request too large' } })}\n`);
        return;
      }
      const newline = input.indexOf('\n');
      if (newline < 0) return;
      // One command per connection: whatever follows the first line is ignored.
      handled = true;
      let outcome: CommandOutcome;
      try {
        const { argv } = JSON.parse(input.slice(0, newline)) as { argv: unknown };
        if (!Array.isArray(argv) || !argv.every((a) => typeof a === 'string')) throw new Error('argv');
        outcome = await runCommand(argv, ctx);
      } catch {
        outcome = { exitCode: 1, body: { error: 'malformed admin request' } };
      }
      socket.end(`${JSON.stringify(outcome)}\n`);
    });
    socket.on('error', () => {});
  });
  // Created owner-only from the start (umask), not opened to others for an instant.
  const umask = process.umask(0o177);
  try {
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(file, () => resolve());
    });
  } finally {
    process.umask(umask);
  }
  chmodSync(file, 0o600);
  return {
    // Shutdown must not wait for a client that keeps its connection open.
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        for (const socket of open) socket.destroy();
      }),
  };
}

/** Sends argv to the server holding dataDir; null when nothing answers there. */
export function sendToAdminSocket(dataDir: string, argv: string[], timeoutMs = 60_000): Promise<CommandOutcome | null> {
  return new Promise((resolve) => {
    const socket = net.connect(adminSocketPath(dataDir));
    let output = '';
    socket.setEncoding('utf8');
    socket.setTimeout(timeoutMs, () => {
      socket.destroy();
      resolve({ exitCode: 1, body: { error: 'the server did not answer the admin command in time' } });
    });
    socket.on('connect', () => socket.write(`${JSON.stringify({ argv })}\n`));
    socket.on('data', (chunk) => {
      output += chunk;
    });
    socket.on('end', () => {
      try {
        resolve(JSON.parse(output) as CommandOutcome);
      } catch {
        resolve({ exitCode: 1, body: { error: 'the server sent a malformed admin answer' } });
      }
    });
    socket.on('error', () => resolve(null));
  });
}
