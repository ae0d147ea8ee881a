import type { CollectionSpec, Doc, Filter, ReadCollection, Write } from '@ledger-api/store';
import type { LedgerStore } from '../projection/types';

type Condition = unknown;

/**
 * A Map-backed store for tests of the ledger consumer. `find` understands the
 * filters the runner issues (equality, `$gt`, `$in` and `$exists` on top-level fields); other
 * operators throw so a test never passes on a filter silently ignored.
 */
export class MemoryStore implements LedgerStore {
  readonly atomic = false;
  readonly collections = new Map<string, Map<string, Doc>>();
  readonly ensured: string[] = [];
  /** Number of applyWrites calls left before the next one throws, to simulate a crash mid-commit. */
  failAfterCalls: number | undefined;

  collection<T extends Doc = Doc>(name: string): ReadCollection<T> {
    const docs = () => [...this.docs(name).values()].map((doc) => structuredClone(doc) as T);
    const find = async (filter: Filter) => docs().filter((doc) => matches(doc, filter));
    return {
      findById: async (id) => {
        const doc = this.docs(name).get(id);
        return doc ? (structuredClone(doc) as T) : null;
      },
      find,
      findOne: async (filter) => (await find(filter))[0] ?? null,
      count: async (filter) => (await find(filter)).length,
      estimatedCount: async () => this.docs(name).size,
    };
  }

  async ensureCollections(specs: CollectionSpec[]): Promise<void> {
    for (const spec of specs) {
      this.docs(spec.name);
      this.ensured.push(spec.name);
    }
  }

  async applyWrites(writes: Write[]): Promise<void> {
    if (this.failAfterCalls !== undefined && this.failAfterCalls-- <= 0) {
      this.failAfterCalls = undefined;
      throw new Error('simulated store failure');
    }
    for (const { collection, id, doc } of writes) {
      if (doc === null) this.docs(collection).delete(id);
      else this.docs(collection).set(id, structuredClone(doc));
    }
  }

  /** Like a store without transactions: each step lands on its own, so a failure can stop a commit halfway. */
  commit(work: () => Promise<void>): Promise<void> {
    return work();
  }

  /** Every document of every collection, for exact before/after comparisons. */
  snapshot(): Record<string, Record<string, Doc>> {
    return Object.fromEntries([...this.collections].map(([name, docs]) => [name, structuredClone(Object.fromEntries(docs))]));
  }

  private docs(name: string): Map<string, Doc> {
    let docs = this.collections.get(name);
    if (!docs) {
      docs = new Map();
      this.collections.set(name, docs);
    }
    return docs;
  }
}

function matches(doc: Doc, filter: Filter): boolean {
  return Object.entries(filter).every(([field, condition]) => fieldMatches(doc[field], condition));
}

/** The operators the runner's filters use, on top-level fields. */
const OPERATORS: Record<string, (value: unknown, operand: unknown) => boolean> = {
  $gt: (value, operand) => typeof value === 'number' && typeof operand === 'number' && value > operand,
  $in: (value, operand) => Array.isArray(operand) && operand.includes(value),
  $exists: (value, operand) => (value !== undefined) === operand,
};

function fieldMatches(value: unknown, condition: Condition): boolean {
  if (typeof condition !== 'object' || condition === null) return value === condition;
  const operators = Object.entries(condition);
  return operators.every(([operator, operand]) => {
    if (!Object.hasOwn(OPERATORS, operator)) throw new Error(`MemoryStore does not support ${operator}`);
    return OPERATORS[operator](value, operand);
  });
}
