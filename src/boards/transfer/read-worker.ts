import { parentPort, workerData } from 'node:worker_threads';
import { AppError } from '../../platform/errors.js';
import { readBoardFile } from './read-board-file.js';
import { type ReaderMessage, CARDS_PER_MESSAGE } from './read-off-loop.js';

// One file, read and answered, then the thread ends (the parent terminates it).
const port = parentPort!;
const send = (message: ReaderMessage) => port.postMessage(message);
try {
  const read = readBoardFile(Buffer.from(workerData as ArrayBuffer));
  // The lists without their cards, then the cards by CARDS_PER_MESSAGE: the parent takes each
  // message in a turn of its own, where one clone of 100,000 cards held its event loop ~0.5 s.
  const lists = read.file.lists;
  send({ type: 'file', read: { ...read, file: { ...read.file, lists: lists.map((l) => ({ ...l, cards: [] })) } } });
  lists.forEach((list, index) => {
    for (let at = 0; at < list.cards.length; at += CARDS_PER_MESSAGE) send({ type: 'cards', list: index, cards: list.cards.slice(at, at + CARDS_PER_MESSAGE) });
  });
  send({ type: 'done' });
} catch (error) {
  // The refusals are the reader's own (400 naming what is wrong, 413); anything else is a bug, a 500 in the parent.
  send(error instanceof AppError ? { type: 'refused', status: error.status, code: error.code, message: error.message } : { type: 'failed', error: String(error) });
}
