/**
 * A JSON-shaped value that nobody may change, at any depth: what a caller
 * holds of a document it shares with a store (see EmbeddedEngine), so that
 * `doc.list.push(x)` or `doc.owner.key = k` does not compile.
 */
export type DeepReadonly<T> = T extends readonly (infer Item)[]
  ? ReadonlyArray<DeepReadonly<Item>>
  : T extends object
    ? { readonly [Member in keyof T]: DeepReadonly<T[Member]> }
    : T;
