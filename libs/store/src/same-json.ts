/** Equality of JSON-shaped values (plain objects, arrays, primitives), member order aside. */
export function sameJsonValue(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null || Array.isArray(a) !== Array.isArray(b)) return false;
  const keys = Object.keys(a);
  if (keys.length !== Object.keys(b).length) return false;
  return keys.every((key) => Object.hasOwn(b, key) && sameJsonValue((a as Record<string, unknown>)[key], (b as Record<string, unknown>)[key]));
}
