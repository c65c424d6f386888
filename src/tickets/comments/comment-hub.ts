import { EventEmitter } from 'node:events';
import type { TicketCommentView } from './schemas.js';

/**
 * This process's open widgets, by ticket (their event streams subscribe). Fed only by the tickets'
 * 'stream' runner (a change this process committed, comments/plugin.ts ticketStreamEffect) and by
 * what other processes announced on the event channel (the same plugin): never by a domain file.
 */
export class TicketCommentHub {
  private readonly emitter = new EventEmitter();

  constructor() {
    this.emitter.setMaxListeners(0);
  }

  /** Shows a public comment to the ticket's open widgets here. */
  streamComment(comment: TicketCommentView): void {
    this.emitter.emit(`t:${comment.ticketId}`, comment);
  }

  /** How many of this process's widgets have the ticket's conversation open now. */
  watchers(ticketId: number): number {
    return this.emitter.listenerCount(`t:${ticketId}`);
  }

  /** Tells the ticket's open widgets here that its status changed (a solved ticket asks "How did we do?"). */
  streamStatus(ticketId: number, status: string): void {
    this.emitter.emit(`s:${ticketId}`, status);
  }

  /** Calls `listener` with each new status of the ticket until the returned function is called. */
  subscribeStatus(ticketId: number, listener: (status: string) => void): () => void {
    this.emitter.on(`s:${ticketId}`, listener);
    return () => this.emitter.off(`s:${ticketId}`, listener);
  }

  /** Calls `listener` with each public comment of the ticket until the returned function is called. */
  subscribe(ticketId: number, listener: (comment: TicketCommentView) => void): () => void {
    this.emitter.on(`t:${ticketId}`, listener);
    return () => this.emitter.off(`t:${ticketId}`, listener);
  }
}
