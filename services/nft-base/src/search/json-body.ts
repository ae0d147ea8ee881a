import { z } from 'zod';

/** Deeper bodies than any collection or attribute needs are refused rather than walked. */
export const MAX_SEARCH_DEPTH = 16;

export type JsonObject = Record<string, unknown>;

export function isPlainObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function checkDepth(value: unknown, path: PropertyKey[], ctx: z.RefinementCtx): void {
  if (path.length > MAX_SEARCH_DEPTH) {
    ctx.addIssue({ code: 'custom', path, message: `"${path.join('.')}" must not be nested more than ${MAX_SEARCH_DEPTH} levels deep` });
    return;
  }
  if (Array.isArray(value)) value.forEach((element, index) => checkDepth(element, [...path, index], ctx));
  else if (isPlainObject(value)) for (const [name, member] of Object.entries(value)) checkDepth(member, [...path, name], ctx);
}

/**
 * Refuses a search body nested deeper than MAX_SEARCH_DEPTH. Member names are
 * not checked: containment searches match every name literally. The custom
 * issue carries its whole message.
 */
export function limitedDepth<S extends z.ZodType>(schema: S) {
  return schema.superRefine((value, ctx) => checkDepth(value, [], ctx));
}

/**
 * A JSON object with any members, passed on as parsed. Zod's object schemas
 * build their output by assignment, which turns a `__proto__` member into the
 * prototype; this one returns the very object it was given. A non-object
 * reads "must be of type object", and the API description shows an object
 * with members of any name and value.
 */
export const jsonObject = () =>
  z
    .custom<JsonObject>()
    .superRefine((value, ctx) => {
      if (!isPlainObject(value)) ctx.addIssue({ code: 'invalid_type', expected: 'object', input: value });
    })
    .meta({ type: 'object', additionalProperties: {} });
