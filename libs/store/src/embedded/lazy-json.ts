import { unpackedJson } from './packed-json';

/** Where a lazily unpacked value keeps its packed text, unfilled or filled, for the engine to hold it again unpacked. */
const PACKED_TEXT = Symbol('packed text');
const FILLED = Symbol('filled');

type Target = (Record<string, unknown> | unknown[]) & { [PACKED_TEXT]?: string; [FILLED]?: true };

/** Fills the target with the members of its text on first use. */
function fill(target: Target): Target {
  if (target[FILLED]) return target;
  Object.defineProperty(target, FILLED, { value: true });
  const value = unpackedJson(target[PACKED_TEXT]!) as Record<string, unknown>;
  // Defined rather than assigned, so that a "__proto__" member stays a member.
  for (const key of Object.keys(value))
    Object.defineProperty(target, key, { value: value[key], writable: true, enumerable: true, configurable: true });
  return target;
}

/** One handler for every lazy value: each keeps its own state on its target, so a value costs a proxy and a target. */
const LAZY: ProxyHandler<Target> = {
  get: (target, key) => (key === PACKED_TEXT ? target[PACKED_TEXT] : Reflect.get(fill(target), key)),
  set: (target, key, member) => Reflect.set(fill(target), key, member),
  has: (target, key) => Reflect.has(fill(target), key),
  ownKeys: (target) => Reflect.ownKeys(fill(target)),
  getOwnPropertyDescriptor: (target, key) => Reflect.getOwnPropertyDescriptor(fill(target), key),
  defineProperty: (target, key, descriptor) => Reflect.defineProperty(fill(target), key, descriptor),
  deleteProperty: (target, key) => Reflect.deleteProperty(fill(target), key),
  preventExtensions: (target) => Reflect.preventExtensions(fill(target)),
  isExtensible: (target) => Reflect.isExtensible(fill(target)),
};

/**
 * The value of a packed JSON text (packedJson), unpacked on first look: a
 * reader that only carries it along, as a document built from the one it read
 * does, never pays for unpacking it. An object or array stands in for itself
 * until then, a proxy whose target is filled with the members on first use, so
 * it behaves as the plain value in every way (members, keys, freezing,
 * JSON.stringify, Array.isArray); anything else is unpacked at once. The text
 * stays with the target (packedTextOf), under a symbol no JSON member can be.
 */
export function lazilyUnpacked(text: string): unknown {
  // Packing leaves a JSON text's first character as it is: it only touches runs of hex digits inside strings.
  if (text[0] !== '{' && text[0] !== '[') return unpackedJson(text);
  const target: Target = text[0] === '[' ? [] : {};
  Object.defineProperty(target, PACKED_TEXT, { value: text });
  return new Proxy(target, LAZY);
}

/** The packed text a lazily unpacked value stands for; undefined for any other value. */
export function packedTextOf(value: object): string | undefined {
  return (value as Target)[PACKED_TEXT];
}
