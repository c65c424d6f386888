// One date format for the whole app (dates.ts): every shown date goes through these.
export { addDays, browserTimeZone, dayOf, firstDayOfWeek, formatDate, formatDay, formatRelative, formatUtcDay, fromDateTimeInput, setDateSettings, shownTimeZone, toDateTimeInput, withDay } from './dates';

export function formatSize(bytes: number) {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}

export function initials(name: string) {
  return name
    .split(/\s+/)
    .filter(Boolean)
    .slice(0, 2)
    .map((p) => p[0]!.toUpperCase())
    .join('');
}

/** "1 comment", "2 comments"; irregular plurals pass their own (`plural(n, 'person', 'people')`). */
export function plural(count: number, one: string, many = `${one}s`) {
  return `${count} ${count === 1 ? one : many}`;
}

/** One of eight avatar colours (styles.css `.avatar.hue-0` … `hue-7`), the same for a person everywhere: by user id. */
export function avatarColour(userId: number) {
  return `hue-${((userId % 8) + 8) % 8}`;
}
