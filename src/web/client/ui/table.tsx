import type { ComponentChildren } from 'preact';
import { useLayoutEffect, useRef } from 'preact/hooks';

/**
 * Items as a table: a header row (`columns`; `actions` adds a last column for row buttons, its
 * header heard by screen readers only), one `row` per item, inside the wrapper that scrolls it
 * sideways on a narrow screen. `empty` is said above it once the items are loaded and there are
 * none; `hideEmpty` leaves the table out until there is a row, rather than showing its header alone.
 */
export function Table<T>({
  columns,
  actions = false,
  rows,
  row,
  empty,
  hideEmpty = false,
  class: className,
  wrapClass,
  wrap = true,
}: {
  /** Column headers; none: a table without a header row. */
  columns?: string[];
  actions?: boolean;
  /** null or undefined while loading. */
  rows: readonly T[] | null | undefined;
  /** The item's `<tr>`, with its key. */
  row: (item: T) => ComponentChildren;
  empty?: ComponentChildren;
  hideEmpty?: boolean;
  /** The table's class. */
  class?: string;
  /** A class for the wrapper besides `table-wrap`. */
  wrapClass?: string;
  /** false: no wrapper (a narrow table in a dialog). */
  wrap?: boolean;
}) {
  const none = !!rows && rows.length === 0;
  const ref = useRef<HTMLTableElement>(null);
  // Each cell carries its column's name: on a phone the rows stack, and each value says what it is.
  useLayoutEffect(() => {
    if (!columns || !ref.current) return;
    for (const tr of ref.current.tBodies[0]?.rows ?? []) {
      [...tr.cells].forEach((cell, i) => cell.setAttribute('data-label', columns[i] ?? ''));
    }
  });
  const table = (
    <table class={className} ref={ref}>
      {columns && (
        <thead>
          <tr>
            {columns.map((column) => (
              <th key={column} scope="col">
                {column}
              </th>
            ))}
            {actions && (
              <th scope="col">
                <span class="visually-hidden">Actions</span>
              </th>
            )}
          </tr>
        </thead>
      )}
      <tbody>{(rows ?? []).map((item) => row(item))}</tbody>
    </table>
  );
  return (
    <>
      {empty !== undefined && none && (typeof empty === 'string' ? <p>{empty}</p> : empty)}
      {(!hideEmpty || (rows && rows.length > 0)) && (wrap ? <div class={wrapClass ? `table-wrap ${wrapClass}` : 'table-wrap'}>{table}</div> : table)}
    </>
  );
}
