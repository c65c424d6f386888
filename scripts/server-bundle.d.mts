// Types of scripts/server-bundle.mjs (plain JavaScript: `npm start` runs it without a TypeScript loader).
export const SERVER_OUT: string;
export const SERVER_ENTRY: string;
export function newestMtime(paths: string[], skip?: string[]): number;
export function isCurrent(built: string, sources: string[], skip?: string[]): boolean;
export function serverBundleIsCurrent(): boolean;
export function webBuildIsCurrent(): boolean;
export function buildServerBundle(): Promise<void>;
export function buildWhatIsStale(): Promise<void>;
