import type { EntryOrder } from './entry-order';
import type { StoredEntry } from './sorting';

/**
 * The positions of `entries` in the order's order, given each one's leading
 * value. With `inTieOrder`, the entries already come in the order that breaks
 * every tie on the leading field, so a stable sort on the leading values alone
 * gives the order; otherwise ties are broken on the other fields, then by
 * insertion.
 */
export function positionsInOrder(entries: readonly StoredEntry[], leading: readonly unknown[], order: EntryOrder, inTieOrder: boolean): number[] {
  const positions = entries.map((_entry, position) => position);
  const direction = order.directions[0];
  if (!inTieOrder) {
    return positions.sort(
      (a, b) =>
        order.compareLeading(leading[a], leading[b]) || order.compareKeys(entries[a].doc, entries[b].doc, 1) || entries[a].seq - entries[b].seq,
    );
  }
  if (!allOfOneType(leading)) return positions.sort((a, b) => order.compareLeading(leading[a], leading[b]) || a - b);
  // Strings alike or numbers alike, nearly every view: compared as they are.
  return positions.sort((a, b) => {
    const left = leading[a] as string;
    const right = leading[b] as string;
    return left < right ? -direction : left > right ? direction : a - b;
  });
}

/** Whether every value is a string, or every value a number other than NaN: what `<` orders as compareValues does. */
function allOfOneType(values: readonly unknown[]): boolean {
  const type = typeof values[0];
  if (type !== 'string' && type !== 'number') return false;
  return values.every((value) => typeof value === type && value === value);
}
