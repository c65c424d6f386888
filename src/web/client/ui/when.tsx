import { formatDate, formatRelative } from './dates';

/**
 * A date in Trello's relative words ("3 hours ago", "in 2 days") as a <time> element, its exact
 * date in the `datetime` attribute and, for a person, in the tooltip.
 */
export function When({ iso, prefix = '' }: { iso: string; prefix?: string }) {
  return (
    <time dateTime={iso} title={formatDate(iso, { time: true })}>
      {prefix}
      {formatRelative(iso)}
    </time>
  );
}
