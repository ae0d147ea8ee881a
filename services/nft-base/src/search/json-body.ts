import { z } from 'zod';

/** Deeper bodies than any collection or attribute needs are refused rather than walked. */
export const MAX_SEARCH_DEPTH = 16;

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * A member name that could act as a query operator (`$...`) or a path into
 * another field (`a.b`) is refused, so a search body is always data.
 */
function unsafeKey(key: string): boolean {
  return key === '' || key.startsWith('$') || key.includes('.');
}

function checkValue(value: unknown, path: PropertyKey[], ctx: z.RefinementCtx): void {
  if (path.length > MAX_SEARCH_DEPTH) {
    ctx.addIssue({ code: 'custom', path, message: `"${path.join('.')}" must not be nested more than ${MAX_SEARCH_DEPTH} levels deep` });
    return;
  }
  if (Array.isArray(value)) {
    value.forEach((element, index) => checkValue(element, [...path, index], ctx));
    return;
  }
  if (!isPlainObject(value)) return;
  for (const [key, member] of Object.entries(value)) {
    if (unsafeKey(key)) {
      ctx.addIssue({ code: 'custom', path: [...path, key], message: `"${[...path, key].join('.')}" is not allowed` });
      return;
    }
    checkValue(member, [...path, key], ctx);
  }
}

/**
 * Checks every member name of a search body, at any depth. The custom issues
 * carry their whole message.
 */
export function safeJsonMembers<S extends z.ZodType>(schema: S) {
  return schema.superRefine((value, ctx) => checkValue(value, [], ctx));
}

/** A JSON object with any members; a non-object reads "must be of type object". */
export const jsonObject = () => z.object({}).catchall(z.unknown());
