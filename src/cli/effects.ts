import { boardEffects } from '../boards/activity/change-board.js';
import type { EventBus } from '../boards/activity/event-bus.js';
import { AfterCommit } from '../platform/after-commit.js';

/**
 * What follows a commit in an admin CLI of its own (not run through a server's admin socket,
 * which hands its commands the server's own effects): the same table (platform/after-commit.ts
 * EFFECTS), with this process's part of each effect. It keeps no board cache and has no streams,
 * notifier, dispatcher, mail worker or attachment store running: the servers' workers find what
 * it wrote (notifications from the activity table, deliveries, mail, deleted files) at their next
 * poll, and the servers heard of its board and user changes from the changes' own commits
 * (NOTIFY, when on PostgreSQL).
 */
export function cliEffects(events: EventBus): AfterCommit {
  const theServersPoll = () => {};
  const boards = boardEffects(events);
  return new AfterCommit(
    {
      // It runs no ticket follow-ups, so it keeps no lists that solve tickets to forget.
      cache: (change) => (change.kind === 'tickets.board' ? undefined : boards.cache(change)),
      // Its board streams only: the CLI holds no widget stream (and writes no ticket).
      stream: (change) => (change.kind === 'board.activity' ? boards.stream(change) : undefined),
      notifierWake: theServersPoll,
      // A card the CLI moves does not move its ticket here, as before: no ticket follow-up runs in the CLI.
      ticketFollowsCard: theServersPoll,
      cardFollowsTicket: theServersPoll,
      webhookWake: theServersPoll,
      mailWake: theServersPoll,
      filePurge: theServersPoll,
    },
    // A runner that fails is told on stderr: stdout is the command's one JSON answer.
    { warn: (o, m) => console.error(m, o) },
  );
}
