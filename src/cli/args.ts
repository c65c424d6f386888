/**
 * Splits argv into command words and `--flag value` / `--flag=value` / bare `--flag` (true). A flag
 * given more than once (`--origin A --origin B`) holds every value, in order.
 */
export function parseArgs(argv: string[]): { words: string[]; flags: Record<string, string | true | (string | true)[]> } {
  const words: string[] = [];
  const flags: Record<string, string | true | (string | true)[]> = {};
  const set = (name: string, value: string | true) => {
    const before = flags[name];
    flags[name] = before === undefined ? value : [...(Array.isArray(before) ? before : [before]), value];
  };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg.startsWith('--')) {
      const eq = arg.indexOf('=');
      if (eq > 0) {
        set(toCamel(arg.slice(2, eq)), arg.slice(eq + 1));
      } else {
        const next = argv[i + 1];
        if (next !== undefined && !next.startsWith('--')) {
          set(toCamel(arg.slice(2)), next);
          i++;
        } else {
          set(toCamel(arg.slice(2)), true);
        }
      }
    } else if (Object.keys(flags).length === 0) {
      words.push(arg);
    } else {
      throw new Error(`unexpected argument "${arg}"`);
    }
  }
  return { words, flags };
}

const toCamel = (s: string) => s.replace(/-([a-z])/g, (_, c: string) => c.toUpperCase());
export const toKebab = (s: string) => s.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`);
