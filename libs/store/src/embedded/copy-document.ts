/**
 * Deep copy of JSON-shaped data (plain objects, arrays, primitives), the only
 * shapes ledger documents take. Anything else (functions, class instances such
 * as Date or Map) is rejected rather than silently flattened. Unlike
 * structuredClone, the copy's objects belong to the caller's realm, so
 * constructor-based equality checks in query evaluation behave the same
 * whichever context built the document.
 */
export function copyDocument<T>(value: T): T {
  return copyValue(value) as T;
}

function copyValue(value: unknown): unknown {
  if (typeof value === 'function' || typeof value === 'symbol' || typeof value === 'bigint') {
    throw new TypeError(`Documents cannot hold a ${typeof value}`);
  }
  if (value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) return value.map(copyValue);
  const prototype: unknown = Object.getPrototypeOf(value);
  if (prototype !== null && Object.getPrototypeOf(prototype) !== null) {
    throw new TypeError('Documents can only hold plain objects, arrays and primitives');
  }
  // fromEntries defines own properties, so a "__proto__" key stays data.
  return Object.fromEntries(Object.entries(value).map(([key, field]) => [key, copyValue(field)]));
}
