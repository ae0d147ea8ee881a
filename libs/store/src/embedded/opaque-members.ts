import type { Doc } from '../types';
import { lazilyUnpacked, packedTextOf } from './lazy-json';
import { packedJson, unpackedJson } from './packed-json';

/**
 * The opaque members of one collection (CollectionSpec.opaqueMembers), which
 * the embedded engine holds as packed JSON text (packedJson): a ledger
 * record's transaction takes a fraction of the memory of its objects that
 * way. Readers always get them back unpacked. Every value seen here is the
 * store's own or shared with its writer, and nobody changes it (a write
 * replaces a document whole), so a value and its text stand for each other.
 */
/** On a held document whose opaque members are packed: the members that unpack them. Not enumerable, so no copy of it carries it. */
const PACKED_BY = Symbol('packed by');

/**
 * A held document as a reader gets it, wherever the engine holds it: in its
 * own collection, or kept whole inside another document, as an undo record
 * keeps a before-image (EmbeddedEngine.findHeld). Any other object as it is.
 */
export function readableHeld(value: object): object {
  const opaque = (value as { [PACKED_BY]?: OpaqueMembers })[PACKED_BY];
  return opaque ? opaque.readable(value as Doc, false) : value;
}

export class OpaqueMembers {
  private readonly names: string[] = [];

  /** The names not declared yet. */
  undeclared(names: readonly string[]): string[] {
    return names.filter((name) => !this.names.includes(name));
  }

  declare(names: readonly string[]): void {
    this.names.push(...this.undeclared(names));
  }

  /**
   * The document as held: the given one when it has no opaque member, else a shallow copy with them
   * packed, which says so (readableHeld) wherever it is held, its own collection or another document.
   */
  held(doc: Doc): Doc {
    let held = doc;
    for (const name of this.names) {
      const value = doc[name];
      if (value === undefined) continue;
      if (held === doc) {
        held = { ...doc };
        Object.defineProperty(held, PACKED_BY, { value: this });
      }
      // A value a shared reader was given carries its text: a document built from one read needs no packing.
      const known = typeof value === 'object' && value !== null ? packedTextOf(value) : undefined;
      held[name] = known ?? packedJson(value);
    }
    return held;
  }

  /**
   * The held document as a reader gets it: itself when it has no opaque member, else a shallow copy
   * with them unpacked; for a shared reader, lazily (lazilyUnpacked), as a writer mostly carries them
   * along unread into the document it builds.
   */
  readable(held: Doc, shared: boolean): Doc {
    let read = held;
    for (const name of this.names) {
      const text = held[name];
      if (typeof text !== 'string') continue;
      if (read === held) read = { ...held };
      read[name] = shared ? lazilyUnpacked(text) : unpackedJson(text);
    }
    return read;
  }
}
