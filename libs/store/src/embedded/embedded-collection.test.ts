import { Query } from 'mingo';
import type { Doc, Filter, IndexSpec, Sort } from '../types';
import { EmbeddedCollection } from './embedded-collection';
import { narrowestCandidates } from './query-plan';
import type { SortedView } from './sorted-view';
import { sortEntries, type StoredEntry } from './sorting';

/**
 * The collection keeps its sorted views and postings up to date write by
 * write; a reference that filters and sorts everything from scratch, as the
 * store did before it had indexes, must give the same answers after any
 * sequence of writes.
 */
const INDEXES: IndexSpec[] = [
  { key: { rank: 1, group: 1 } },
  { key: { rank: -1, group: 1 } },
  { key: { group: 1 } },
  { key: { kind: -1, rank: 1, 'nested.score': 1 } },
  { key: { 'nested.score': -1, rank: 1 } },
  { key: { tags: 1 } },
  { key: { 'form.$**': 1 } },
  // Each ordered, once the order was deferred, on the leading field alone from the first index's order.
  { key: { group: 1, rank: 1 } },
  { key: { 'nested.score': 1, rank: 1, group: 1 } },
];

const GROUPS = ['red', 'green', 'blue'];
const TAGS = ['x', 'y', 'z', 'w'];

/** mulberry32: the same writes on every run. */
function seeded(seed: number) {
  let state = seed >>> 0;
  const next = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = Math.imul(state ^ (state >>> 15), state | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const int = (below: number) => Math.floor(next() * below);
  return { int, pick: <T>(items: readonly T[]) => items[int(items.length)] };
}

type Random = ReturnType<typeof seeded>;

/** Small value ranges, so ties, missing fields and mixed types are common. */
function randomDoc(random: Random, id: string): Doc {
  const doc: Doc = { _id: id, rank: random.int(6), kind: random.pick(['a', 'b']) };
  if (random.int(5) > 0) doc.group = random.pick(GROUPS);
  if (random.int(7) === 0) doc.rank = random.pick(['high', null, 2.5]);
  if (random.int(3) > 0) doc.nested = { score: random.int(4) };
  const tagging = random.int(8);
  if (tagging < 2) doc.tags = Array.from({ length: random.int(3) }, () => random.pick(TAGS));
  else if (tagging < 4) doc.tags = random.pick(TAGS);
  doc.form = { colour: random.pick(GROUPS), size: random.int(3), list: { '[]': [random.pick(TAGS), { deep: random.int(2) }] } };
  return doc;
}

/**
 * A replacement built from the stored document, as projections build theirs:
 * the members it leaves alone are the very same values, and a member it
 * builds anew may hold what it held before.
 */
function changedFrom(random: Random, stored: Doc): Doc {
  const doc = { ...stored };
  const change = random.int(4);
  if (change === 0) doc.rank = random.int(6);
  else if (change === 1) doc.nested = { score: random.int(4) };
  else if (change === 2) delete doc.group;
  else doc.form = { ...(stored.form as Doc), size: random.int(3) };
  return doc;
}

const FILTERS: Filter[] = [
  {},
  { rank: 3 },
  { rank: { $eq: 2 } },
  { rank: { $in: [1, 4, 'high'] } },
  { rank: { $gt: 2, $lte: 4 } },
  { rank: { $lt: 3 } },
  { group: { $eq: 'green' } },
  { kind: 'a' },
  { group: 'blue', rank: { $gte: 1 } },
  { $and: [{ group: { $eq: 'red' } }, { 'nested.score': { $gt: 1 } }] },
  { 'nested.score': 2 },
  { tags: 'y' },
  { tags: { $all: ['x', 'z'] } },
  { 'form.colour': { $eq: 'red' }, 'form.size': { $eq: 1 } },
  { 'form.list.[]': { $all: ['w'] } },
  { 'form.list.[].deep': 1 },
  { _id: { $in: ['d3', 'd7', 'd11', 'missing'] } },
  { _id: { $in: ['d7', 'd3', 'd7', 'd3', 'missing', 'd7'] } },
  { _id: { $in: [] } },
  { _id: { $in: ['d5', 5, null] } },
  { _id: 'd9' },
  { _id: { $eq: 'd10' } },
  { _id: { $in: ['d1', 'd2'] }, rank: { $gte: 2 } },
  { $or: [{ rank: 0 }, { group: 'red' }] },
];

const SORTS: Array<Sort | undefined> = [
  undefined,
  { rank: 1, group: 1 },
  { rank: -1, group: -1 },
  { rank: -1, group: 1 },
  { rank: 1, group: -1 },
  { group: 1 },
  { group: -1 },
  { 'nested.score': -1, rank: 1 },
  { 'nested.score': 1, rank: -1 },
  { rank: 1 },
  { group: 1, rank: -1 },
  { kind: 1, rank: -1, 'nested.score': -1 },
  { kind: 1, rank: 1, 'nested.score': -1 },
  { rank: -1, 'nested.score': -1 },
  { rank: 1, 'nested.score': -1 },
  { rank: -1, 'nested.score': 1 },
  { _id: -1 },
];

/** What the collection must answer: the matches in insertion order, sorted with insertion order breaking ties. */
function reference(docs: Map<string, StoredEntry>, filter: Filter, sort: Sort | undefined): string[] {
  const query = new Query(filter);
  const matches = [...docs.values()].filter(({ doc }) => query.test(doc)).sort((a, b) => a.seq - b.seq);
  return (sort ? sortEntries(matches, sort) : matches).map(({ doc }) => doc._id);
}

describe('EmbeddedCollection', () => {
  it.each([
    [1, 'in order write by write'],
    [2, 'in order write by write'],
    [3, 'in order write by write'],
    [4, 'ordered once after the writes of each round'],
    [5, 'ordered once after the writes of each round'],
  ])('answers every filter, sort and window as a from-scratch evaluation does, through random writes (seed %i, indexes %s)', (seed, ordering) => {
    const random = seeded(seed);
    const collection = new EmbeddedCollection();
    for (const index of INDEXES.slice(0, 4)) collection.addIndex(index.key);
    const docs = new Map<string, StoredEntry>();
    let seq = 0;
    for (let round = 0; round < 12; round++) {
      if (ordering !== 'in order write by write') collection.deferOrder();
      for (let write = 0; write < 40; write++) {
        const id = `d${random.int(60)}`;
        if (random.int(5) === 0) {
          collection.delete(id);
          docs.delete(id);
        } else {
          const stored = collection.get(id);
          const derived = stored !== undefined && random.int(2) === 0;
          const doc = derived ? changedFrom(random, stored) : randomDoc(random, id);
          collection.put(derived ? doc : structuredClone(doc));
          docs.set(id, { doc, seq: docs.get(id)?.seq ?? seq++ });
        }
      }
      // Indexes declared over existing documents must hold them too.
      if (round === 2) for (const index of INDEXES.slice(4)) collection.addIndex(index.key);
      collection.restoreOrder();
      for (const filter of FILTERS) {
        expect(collection.count(filter)).toBe(reference(docs, filter, undefined).length);
        for (const sort of SORTS) {
          const expected = reference(docs, filter, sort);
          expect(collection.find(filter, { sort }).map((doc) => doc._id)).toEqual(expected);
          expect(collection.find(filter, { sort, skip: 3, limit: 4 }).map((doc) => doc._id)).toEqual(expected.slice(3, 7));
        }
      }
    }
  });

  it('keeps entries that tie on every sort field in insertion order, reading a view either way', () => {
    const collection = new EmbeddedCollection();
    collection.addIndex({ rank: 1 });
    for (const [id, rank] of [
      ['a', 2],
      ['b', 1],
      ['c', 2],
      ['d', 1],
      ['e', 2],
    ] as const) {
      collection.put({ _id: id, rank });
    }
    expect(collection.find({}, { sort: { rank: 1 } }).map((doc) => doc._id)).toEqual(['b', 'd', 'a', 'c', 'e']);
    expect(collection.find({}, { sort: { rank: -1 } }).map((doc) => doc._id)).toEqual(['a', 'c', 'e', 'b', 'd']);
    expect(collection.find({}, { sort: { rank: -1 }, skip: 1, limit: 3 }).map((doc) => doc._id)).toEqual(['c', 'e', 'b']);
  });

  it('reads long lists and pages deep inside long ties backwards as a sort gives them', () => {
    const random = seeded(4);
    const collection = new EmbeddedCollection();
    collection.addIndex({ rank: 1, group: 1 });
    const docs = new Map<string, StoredEntry>();
    for (let seq = 0; seq < 3000; seq++) {
      const doc: Doc = { _id: `d${seq}`, rank: random.int(3), group: random.pick(GROUPS) };
      collection.put(structuredClone(doc));
      docs.set(doc._id, { doc, seq });
    }
    for (const sort of [
      { rank: -1, group: -1 },
      { rank: -1, group: 1 },
      { rank: 1, group: -1 },
    ] as Sort[]) {
      const expected = reference(docs, {}, sort);
      expect(collection.find({}, { sort }).map((doc) => doc._id)).toEqual(expected);
      expect(collection.find({}, { sort, skip: 1500, limit: 50 }).map((doc) => doc._id)).toEqual(expected.slice(1500, 1550));
    }
  });

  it('sorts a collection that declares no index by _id when asked, and keeps that order through later writes', () => {
    const collection = new EmbeddedCollection();
    for (const id of ['c', 'a', 'd']) collection.put({ _id: id });
    expect(collection.find({}, { sort: { _id: 1 } }).map((doc) => doc._id)).toEqual(['a', 'c', 'd']);
    collection.put({ _id: 'b' });
    collection.delete('c');
    expect(collection.find({}, { sort: { _id: -1 } }).map((doc) => doc._id)).toEqual(['d', 'b', 'a']);
    expect(collection.find({}).map((doc) => doc._id)).toEqual(['a', 'd', 'b']);
  });

  it('answers a range on _id from the _id order, with other conditions beside it', () => {
    const collection = new EmbeddedCollection();
    collection.addIndex({ kind: 1 });
    for (const [id, kind] of [
      ['3', 'a'],
      ['1', 'b'],
      ['4', 'a'],
      ['2', 'a'],
      ['5', 'b'],
    ])
      collection.put({ _id: id, kind });
    expect(collection.find({ _id: { $gt: '2' }, kind: 'a' }).map((doc) => doc._id)).toEqual(['3', '4']);
    expect(collection.count({ _id: { $gt: '1', $lte: '4' } })).toBe(3);
    // Read from the view led by _id, not by a scan of every document.
    const idView = {
      order: { fields: ['_id'], directions: [1], compareLeading: () => 0 },
      partitionPointOfLeading: () => 0,
      length: 5,
    } as unknown as SortedView;
    const sources = { byId: () => [], viewLedBy: (field: string) => (field === '_id' ? idView : undefined), postingsOf: () => undefined };
    expect(narrowestCandidates({ _id: { $gt: '2' } }, sources)).toMatchObject({ kind: 'range', view: idView });
  });

  it('finds array members of an indexed field once it holds arrays', () => {
    const collection = new EmbeddedCollection();
    collection.addIndex({ tags: 1 });
    collection.put({ _id: 'a', tags: 'x' });
    collection.put({ _id: 'b', tags: ['x', 'y'] });
    collection.put({ _id: 'c', tags: ['y'] });
    expect(collection.find({ tags: 'y' }).map((doc) => doc._id)).toEqual(['b', 'c']);
    expect(collection.count({ tags: { $eq: 'x' } })).toBe(2);
  });
});
