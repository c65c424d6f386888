import { EventEmitter } from 'node:events';
import type { TicketCommentView } from './schemas.js';

/**
 * Public ticket comments as they are committed, for this process's open widgets (their event
 * streams subscribe by ticket). In-process: a comment written through another process reaches
 * an open widget when it next loads the conversation, and by mail.
 */
export class TicketCommentHub {
  private readonly emitter = new EventEmitter();

  constructor() {
    this.emitter.setMaxListeners(0);
  }

  /** Tells the open widgets of the ticket; how many were listening. */
  publish(comment: TicketCommentView): number {
    const listeners = this.emitter.listenerCount(`t:${comment.ticketId}`);
    this.emitter.emit(`t:${comment.ticketId}`, comment);
    this.emitter.emit('all', comment);
    return listeners;
  }

  /** How many of this process's widgets have the ticket's conversation open now. */
  watchers(ticketId: number): number {
    return this.emitter.listenerCount(`t:${ticketId}`);
  }

  /** Tells the open widgets of the ticket that its status changed (a solved ticket asks "How did we do?"). */
  publishStatus(ticketId: number, status: string): void {
    this.emitter.emit(`s:${ticketId}`, status);
  }

  /** Calls `listener` with each new status of the ticket until the returned function is called. */
  subscribeStatus(ticketId: number, listener: (status: string) => void): () => void {
    this.emitter.on(`s:${ticketId}`, listener);
    return () => this.emitter.off(`s:${ticketId}`, listener);
  }

  /** Calls `listener` with every public comment this process commits (tickets as cards: the customer's answers on the card). */
  subscribeAll(listener: (comment: TicketCommentView) => void): () => void {
    this.emitter.on('all', listener);
    return () => this.emitter.off('all', listener);
  }

  /** Calls `listener` with each public comment of the ticket until the returned function is called. */
  subscribe(ticketId: number, listener: (comment: TicketCommentView) => void): () => void {
    this.emitter.on(`t:${ticketId}`, listener);
    return () => this.emitter.off(`t:${ticketId}`, listener);
  }
}
