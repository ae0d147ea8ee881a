import type { Sort } from '../types';
import { listSort, type FieldOrder, type PageRequest } from '../window';

/** A query parameter's schema, as the list configs declare them (zod). */
export interface ParamSchema {
  safeParse(value: unknown): { success: boolean; data?: unknown };
}

/** Raw query texts that between them reach every kind of value a filter parameter takes. */
const SAMPLE_TEXTS = [undefined, 'true', 'false', '1', 'Test', 'Test%', '%Test%'];

/** The distinct values a parameter's schema accepts from the sample texts (a default for absent). */
function sampleValues(schema: ParamSchema): unknown[] {
  const values = new Map<string, unknown>();
  for (const text of SAMPLE_TEXTS) {
    const parsed = schema.safeParse(text);
    if (parsed.success) values.set(JSON.stringify(parsed.data) ?? 'undefined', parsed.data);
  }
  return [...values.values()];
}

/** Every combination of sample values of a list's filter parameters; absent members stay absent. */
export function filterCombinations(filters: Record<string, ParamSchema>): Record<string, unknown>[] {
  let combinations: Record<string, unknown>[] = [{}];
  for (const [name, schema] of Object.entries(filters)) {
    combinations = combinations.flatMap((combination) =>
      sampleValues(schema).map((value) => (value === undefined ? combination : { ...combination, [name]: value })),
    );
  }
  return combinations;
}

/**
 * A keyset boundary at the far end of every list read in `sort` (way 1) or at
 * its start (way -1): null sorts before and booleans after every other value,
 * so reads from it find nothing and need no documents holding sort fields.
 */
function boundaryBeyondEnd(sort: Sort, way: 1 | -1): unknown[] {
  return Object.values(sort).map((direction) => (direction * way === 1 ? true : null));
}

/**
 * Page 1 in the default order, then every orderable stored field in both
 * directions; given the list's default order, each also as keyset reads
 * forward (the list's sort) and backward (the sort reversed).
 */
export function pageRequests(orderable: Record<string, string>, defaultOrder?: Sort): PageRequest[] {
  const orders: (FieldOrder | undefined)[] = [undefined];
  for (const field of Object.values(orderable)) orders.push({ field, direction: 'asc' }, { field, direction: 'desc' });
  return orders.flatMap((orderBy) => {
    const request: PageRequest = { page: 1, limit: 10, ...(orderBy && { orderBy }) };
    if (!defaultOrder) return [request];
    const sort = listSort(orderBy, defaultOrder);
    return [
      request,
      { ...request, cursor: { kind: 'after', values: boundaryBeyondEnd(sort, 1) } },
      { ...request, cursor: { kind: 'before', values: boundaryBeyondEnd(sort, -1) } },
    ];
  });
}
