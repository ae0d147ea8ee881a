import type { Doc } from '../types';
import { packedJson, unpackedJson } from './packed-json';

/** How many recently unpacked values are kept for the next readers. */
const RECENT_VALUES = 1024;

/**
 * The opaque members of one collection (CollectionSpec.opaqueMembers), which
 * the embedded engine holds as packed JSON text (packedJson): a ledger
 * record's transaction takes a fraction of the memory of its objects that
 * way. Readers always get them back unpacked. Every value seen here is the
 * store's own or shared with its writer, and nobody changes it (a write
 * replaces a document whole), so a value and its text stand for each other.
 */
export class OpaqueMembers {
  private readonly names: string[] = [];
  /** The text of a value a reader was given: a document built from one read carries it unchanged, and needs no packing. */
  private readonly textOf = new WeakMap<object, string>();
  /** The values of the texts read most recently: a replay reads some records again and again (a collection at every mint). */
  private readonly recent = new Map<string, unknown>();

  /** The names not declared yet. */
  undeclared(names: readonly string[]): string[] {
    return names.filter((name) => !this.names.includes(name));
  }

  declare(names: readonly string[]): void {
    this.names.push(...this.undeclared(names));
  }

  /** The document as held: the given one when it has no opaque member, else a shallow copy with them packed. */
  held(doc: Doc): Doc {
    let held = doc;
    for (const name of this.names) {
      const value = doc[name];
      if (value === undefined) continue;
      if (held === doc) held = { ...doc };
      const known = typeof value === 'object' && value !== null ? this.textOf.get(value) : undefined;
      held[name] = known ?? packedJson(value);
    }
    return held;
  }

  /** The held document as a reader gets it: itself when it has no opaque member, else a shallow copy with them unpacked. */
  readable(held: Doc): Doc {
    let read = held;
    for (const name of this.names) {
      const text = held[name];
      if (typeof text !== 'string') continue;
      if (read === held) read = { ...held };
      let value = this.recent.get(text);
      if (value === undefined) {
        value = unpackedJson(text);
        this.remember(text, value);
      }
      read[name] = value;
    }
    return read;
  }

  private remember(text: string, value: unknown): void {
    if (typeof value === 'object' && value !== null) this.textOf.set(value, text);
    this.recent.set(text, value);
    if (this.recent.size > RECENT_VALUES) this.recent.delete(this.recent.keys().next().value!);
  }
}
