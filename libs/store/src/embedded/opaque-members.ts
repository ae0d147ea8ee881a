import type { Doc } from '../types';
import { lazilyUnpacked, packedTextOf } from './lazy-json';
import { packedJson } from './packed-json';

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
 * The copy of a held document as a reader gets it, wherever the engine holds
 * it: in its own collection, or kept whole inside another document, as an
 * undo record keeps a before-image (EmbeddedEngine.findHeld). The copy still
 * holds the packed text, which is unpacked in its place; a copy of any other
 * object is given as it is.
 */
export function readableCopy(held: object, copy: Record<string, unknown>): Record<string, unknown> {
  const opaque = (held as { [PACKED_BY]?: OpaqueMembers })[PACKED_BY];
  return opaque ? opaque.unpackInto(copy) : copy;
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
   * packed, which says so (readableCopy) wherever it is held, its own collection or another document.
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
   * A copy of a held document, its packed members unpacked in their place, lazily (lazilyUnpacked):
   * no filter or sort reads them, so a document read only to be matched, counted or sorted (a read
   * at a past height reads many) never pays for unpacking them, and one that is sent pays once.
   */
  unpackInto(copy: Record<string, unknown>): Record<string, unknown> {
    for (const name of this.names) {
      const text = copy[name];
      if (typeof text === 'string') copy[name] = lazilyUnpacked(text);
    }
    return copy;
  }

  /**
   * The held document as a reader that shares it gets it: itself when it has no opaque member, else a
   * shallow copy with them unpacked lazily (lazilyUnpacked), as a writer mostly carries them along
   * unread into the document it builds.
   */
  shared(held: Doc): Doc {
    let read = held;
    for (const name of this.names) {
      const text = held[name];
      if (typeof text !== 'string') continue;
      if (read === held) read = { ...held };
      read[name] = lazilyUnpacked(text);
    }
    return read;
  }
}
