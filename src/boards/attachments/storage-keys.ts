import { randomBytes } from 'node:crypto';

/** Keys are 32 random hex digits; anything else names no object (and never a path). */
const STORAGE_KEY = /^[0-9a-f]{32}$/;

/** A new object's key: random, never derived from the file name. */
export const newStorageKey = () => randomBytes(16).toString('hex');

/** Whether `key` is one newStorageKey() could have made. */
export const isStorageKey = (key: string) => STORAGE_KEY.test(key);
