import { unpackedJson } from './packed-json';

/**
 * The value of a packed JSON text (packedJson), unpacked on first look: a
 * reader that only carries it along, as a document built from the one it read
 * does, never pays for unpacking it. An object or array stands in for itself
 * until then, a proxy whose target is filled with the members on first use, so
 * it behaves as the plain value in every way (members, keys, freezing,
 * JSON.stringify, Array.isArray); anything else is unpacked at once.
 */
export function lazilyUnpacked(text: string): unknown {
  // Packing leaves a JSON text's first character as it is: it only touches runs of hex digits inside strings.
  if (text[0] !== '{' && text[0] !== '[') return unpackedJson(text);
  const target: Record<string, unknown> | unknown[] = text[0] === '[' ? [] : {};
  let filled = false;
  const fill = () => {
    if (filled) return target;
    filled = true;
    const value = unpackedJson(text) as Record<string, unknown>;
    // Defined rather than assigned, so that a "__proto__" member stays a member.
    for (const key of Object.keys(value))
      Object.defineProperty(target, key, { value: value[key], writable: true, enumerable: true, configurable: true });
    return target;
  };
  return new Proxy(target, {
    get: (_, key) => Reflect.get(fill(), key),
    set: (_, key, member) => Reflect.set(fill(), key, member),
    has: (_, key) => Reflect.has(fill(), key),
    ownKeys: () => Reflect.ownKeys(fill()),
    getOwnPropertyDescriptor: (_, key) => Reflect.getOwnPropertyDescriptor(fill(), key),
    defineProperty: (_, key, descriptor) => Reflect.defineProperty(fill(), key, descriptor),
    deleteProperty: (_, key) => Reflect.deleteProperty(fill(), key),
    preventExtensions: () => Reflect.preventExtensions(fill()),
    isExtensible: () => Reflect.isExtensible(fill()),
  });
}
