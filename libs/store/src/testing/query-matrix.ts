import type { FieldOrder, PageRequest } from '../window';

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

/** Page 1 in the default order, then every orderable stored field in both directions. */
export function pageRequests(orderable: Record<string, string>): PageRequest[] {
  const orders: (FieldOrder | undefined)[] = [undefined];
  for (const field of Object.values(orderable)) orders.push({ field, direction: 'asc' }, { field, direction: 'desc' });
  return orders.map((orderBy) => ({ page: 1, limit: 10, ...(orderBy && { orderBy }) }));
}
