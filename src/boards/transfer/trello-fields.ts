import { fitFieldValue, type FieldValue } from '../fit-field-value.js';
import type { BoardFile } from './board-file.js';
import { type ImportReport, fitText } from './import-report.js';
import type { TrelloCard, TrelloExport } from './trello-export.js';

type FieldDef = BoardFile['customFields'][number];

/** Keys of the fields that hold what our cards have no column for: Trello's start dates and due dates' done state. */
export const START_FIELD = { key: 'trello:start', name: 'Start date', type: 'date', options: [] } as const satisfies FieldDef;
export const DUE_DONE_FIELD = { key: 'trello:dueComplete', name: 'Due date done', type: 'checkbox', options: [] } as const satisfies FieldDef;

const TYPES = new Set(['text', 'number', 'date', 'checkbox', 'list']);

/**
 * Trello's custom fields (text, number, date, checkbox, list) as ours, with a reader of a card's
 * values; a start date and a due date's done state become a date and a checkbox field, made only
 * when some card has one. Values that do not fit are left out and reported.
 */
export function fieldsFromTrello(t: TrelloExport, report: ImportReport) {
  const definitions: FieldDef[] = [];
  const optionText = new Map<string, string>();
  const known = new Map<string, FieldDef>();
  for (const f of [...(t.customFields ?? [])].sort((a, b) => a.pos - b.pos)) {
    if (!TYPES.has(f.type)) {
      report.add('custom fields of a type we do not have', `${f.name}: ${f.type}`);
      continue;
    }
    const options: string[] = [];
    if (f.type === 'list') {
      for (const o of [...(f.options ?? [])].sort((a, b) => a.pos - b.pos)) {
        const value = fitText(o.value.text, 100, report, 'custom field options') || 'Option';
        optionText.set(o.id, value);
        if (!options.includes(value)) options.push(value);
      }
      if (options.length > 50) report.add('list field options beyond 50', f.name, options.length - 50);
      if (options.length === 0) options.push('Option');
    }
    const def = { key: f.id, name: fitText(f.name, 100, report, 'custom field names') || 'Field', type: f.type as FieldDef['type'], options: options.slice(0, 50) };
    definitions.push(def);
    known.set(f.id, def);
  }
  const hasStart = t.cards.some((c) => c.start);
  const hasDueDone = t.cards.some((c) => c.due && c.dueComplete);
  if (hasStart) definitions.push({ ...START_FIELD, options: [] });
  if (hasDueDone) definitions.push({ ...DUE_DONE_FIELD, options: [] });

  /** A Trello value as our field takes it, or undefined (reported) when it does not fit. */
  const valueOf = (def: FieldDef, item: NonNullable<TrelloCard['customFieldItems']>[number], card: TrelloCard): FieldValue | undefined => {
    const v = item.value ?? {};
    let raw: unknown;
    if (def.type === 'list') raw = item.idValue ? optionText.get(item.idValue) : undefined;
    else if (def.type === 'text') raw = v.text === undefined ? undefined : fitText(v.text, 1000, report, 'text field values');
    else if (def.type === 'number') raw = v.number === undefined ? undefined : Number(v.number);
    else if (def.type === 'date') raw = v.date;
    else raw = v.checked === undefined ? undefined : v.checked === 'true';
    const fit = raw === undefined ? null : fitFieldValue(def, raw);
    if (fit && 'ok' in fit) return fit.ok;
    report.add('custom field values that do not fit their field (left out)', `${card.name}: ${def.name}`);
    return undefined;
  };

  return {
    definitions,
    valuesOf(card: TrelloCard): Record<string, FieldValue> {
      const values: Record<string, FieldValue> = {};
      for (const item of card.customFieldItems ?? []) {
        const def = known.get(item.idCustomField);
        if (!def) continue; // a field of a type we do not have: reported once above
        const value = valueOf(def, item, card);
        if (value !== undefined) values[def.key] = value;
      }
      if (card.start) {
        const at = new Date(card.start);
        const fit = fitFieldValue(START_FIELD, Number.isNaN(at.getTime()) ? card.start : at.toISOString());
        if ('ok' in fit) values[START_FIELD.key] = fit.ok;
        else report.add('start dates that are not dates (left out)', `${card.name}: ${card.start}`);
      }
      if (hasDueDone && card.due) values[DUE_DONE_FIELD.key] = card.dueComplete === true;
      return values;
    },
  };
}
