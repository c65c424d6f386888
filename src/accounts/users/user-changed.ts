/**
 * What other modules do after a user's name or address changed or the account was blocked or
 * deleted: app.ts hands in the board cache's invalidation (a member's name and address are on
 * every board they belong to), which reaches every process. Resolves once they have been told.
 */
export type UserChanged = (userId: number) => Promise<void>;
