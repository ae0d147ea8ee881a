/**
 * Deep copy of JSON-shaped data (plain objects, arrays, primitives), the only
 * shapes ledger documents take. Anything else (functions, class instances such
 * as Date or Map) is rejected rather than silently flattened. Unlike
 * structuredClone, the copy's objects belong to the caller's realm, so
 * constructor-based equality checks in query evaluation behave the same
 * whichever context built the document; and strings are shared rather than
 * copied, which costs neither time nor memory, as they cannot change.
 */
export function copyDocument<T>(value: T, asRead?: AsRead): T {
  return copyValue(value, asRead) as T;
}

/**
 * What a reader gets of a plain object, from the object and its copy: the
 * copy itself, or (the embedded engine's held documents) the copy with its
 * packed members unpacked. Unpacking makes new objects, so it comes after the
 * copy: copied before, they would be made twice.
 */
export type AsRead = (original: object, copy: Record<string, unknown>) => Record<string, unknown>;

function copyValue(value: unknown, asRead: AsRead | undefined): unknown {
  if (!isContainer(value)) return value;
  if (Array.isArray(value)) {
    const copy = new Array<unknown>(value.length);
    for (let i = 0; i < value.length; i++) copy[i] = copyValue(value[i], asRead);
    return copy;
  }
  const copy: Record<string, unknown> = {};
  for (const key of Object.keys(value)) {
    const member = copyValue((value as Record<string, unknown>)[key], asRead);
    // Assigning "__proto__" would set the prototype; defining it keeps it an own data member.
    if (key === '__proto__') Object.defineProperty(copy, key, { value: member, enumerable: true, writable: true, configurable: true });
    else copy[key] = member;
  }
  return asRead ? asRead(value, copy) : copy;
}

/**
 * Freezes a JSON-shaped document and everything it holds, rejecting what
 * copyDocument rejects: the guard, outside production, that nobody changes a
 * document shared without a copy.
 */
export function freezeDocument<T>(value: T): T {
  if (isContainer(value)) {
    for (const member of Object.values(value)) freezeDocument(member);
    Object.freeze(value);
  }
  return value;
}

/** Whether the value is an array or a plain object; throws for what documents cannot hold. */
function isContainer(value: unknown): value is object {
  if (value === null || typeof value !== 'object') {
    if (typeof value === 'function' || typeof value === 'symbol' || typeof value === 'bigint') {
      throw new TypeError(`Documents cannot hold a ${typeof value}`);
    }
    return false;
  }
  if (Array.isArray(value)) return true;
  const prototype: unknown = Object.getPrototypeOf(value);
  if (prototype !== null && Object.getPrototypeOf(prototype) !== null) {
    throw new TypeError('Documents can only hold plain objects, arrays and primitives');
  }
  return true;
}
