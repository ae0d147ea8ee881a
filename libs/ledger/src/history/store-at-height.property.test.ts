import { silentLogger } from '@ledger-api/observability';
import { EmbeddedStore, findPage, type Doc, type Filter, type KeysetPosition, type PageRequest, type Sort, type Store } from '@ledger-api/store';
import { freshMongoStore } from '@ledger-api/store/testing';
import fc from 'fast-check';
import { ProjectionRunner } from '../projection/runner';
import type { Projection } from '../projection/types';
import { TestLedger, testPublicKey } from '../testing/test-ledger';
import type { Block, Transaction } from '../types';
import { blockIdAt, storeAtHeight, type ReadStore } from './store-at-height';

const HOLDERS = 'holders';
const SENDERS = Array.from({ length: 6 }, (_, index) => testPublicKey(`sender-${index}`));

/**
 * Type 0 counts a transaction for its sender, and on every other count keeps
 * a `tag` the next one drops (a member added, changed and taken away); type 1
 * deletes the sender, whom a later type 0 creates afresh.
 */
const holderProjection: Projection = {
  area: 'history-test',
  collections: [{ name: HOLDERS, indexes: [{ key: { count: -1, _id: 1 } }, { key: { lastHeight: 1, _id: 1 } }] }],
  projects: () => true,
  async applyTransaction(ctx, tx) {
    if (tx.type === 1) return ctx.remove(HOLDERS, tx.senderPublicKey);
    const known = await ctx.get<Doc & { count: number; tag?: string }>(HOLDERS, tx.senderPublicKey);
    const count = (known?.count ?? 0) + 1;
    const { tag: _dropped, ...rest } = known ?? { _id: tx.senderPublicKey };
    ctx.put(HOLDERS, { ...rest, count, lastHeight: ctx.block.height, ...(count % 2 === 1 && { tag: `tag-${count}` }) });
  },
};

/** A block of 1 to 4 transactions from the senders, or a revert of the top block. */
const step = fc.oneof(
  { weight: 4, arbitrary: fc.array(fc.record({ sender: fc.nat(SENDERS.length - 1), forget: fc.boolean() }), { minLength: 1, maxLength: 4 }) },
  { weight: 1, arbitrary: fc.constant('revert' as const) },
);

interface Followed {
  live: ReadStore;
  head: number;
  /** The blocks of the chain followed now, by height. */
  chain: Block[];
}

async function follow(store: Store, steps: Array<'revert' | Array<{ sender: number; forget: boolean }>>): Promise<Followed> {
  const ledger = new TestLedger('history');
  const runner = new ProjectionRunner({ store, projection: holderProjection, logger: silentLogger() });
  await runner.init();
  const chain: Block[] = [];
  let streamSeq = 0;
  for (const next of steps) {
    if (next === 'revert') {
      if (chain.length === 0) continue;
      ledger.revert();
      chain.pop();
    } else {
      const transactions: Transaction[] = next.map(({ sender, forget }) =>
        ledger.transaction({ typeGroup: 1, type: forget ? 1 : 0, senderPublicKey: SENDERS[sender] }),
      );
      chain.push(ledger.block(transactions));
    }
    for (const event of ledger.take()) await runner.handle(event, ++streamSeq);
  }
  return { live: store, head: chain.length, chain };
}

/** A fresh read model of the chain's first `height` blocks, as the head would answer right after block `height`. */
async function replayed(chain: Block[], height: number): Promise<ReadStore> {
  const store = new EmbeddedStore();
  const runner = new ProjectionRunner({ store, projection: holderProjection, logger: silentLogger() });
  await runner.init();
  for (const block of chain.slice(0, height)) await runner.handle({ event: 'block.applied', block }, block.height);
  return store;
}

const FILTERS: Filter[] = [{}, { count: { $gte: 2 } }, { tag: { $exists: true } }, { _id: { $in: SENDERS.slice(0, 3) } }];
const SORTS: Sort[] = [
  { count: -1, _id: 1 },
  { lastHeight: 1, _id: 1 },
];

/** Every read a repository makes, at once: by id, by ids, lists with page and keyset paging, counts. */
async function reads(store: ReadStore) {
  const holders = store.collection(HOLDERS);
  const answers: unknown[] = [await Promise.all(SENDERS.map((id) => holders.findById(id))), await holders.estimatedCount()];
  for (const filter of FILTERS) {
    answers.push(await holders.count(filter));
    for (const sort of SORTS) {
      const list = { defaultOrder: sort };
      answers.push(await holders.find(filter, { sort }), await holders.findOne(filter, { sort, skip: 1 }));
      for (const request of pageRequests(sort)) answers.push(await findPage(holders, filter, request, list));
      const [first] = await holders.find(filter, { sort, limit: 1 });
      if (first) answers.push(await holders.find(filter, { sort, limit: 2, after: Object.keys(sort).map((field) => first[field]) }));
    }
  }
  return answers;
}

/** Page and keyset requests on the list's own order (a boundary of its two fields). */
function pageRequests(sort: Sort): PageRequest[] {
  const [field] = Object.keys(sort);
  const orderBy = { field, direction: sort[field] === 1 ? ('asc' as const) : ('desc' as const) };
  const cursors: KeysetPosition[] = [{ kind: 'first' }, { kind: 'last' }, { kind: 'after', values: [1, SENDERS[2]] }];
  return [
    { page: 1, limit: 2 },
    { page: 2, limit: 2 },
    { page: 1, limit: 3, offset: 1 },
    ...cursors.map((cursor) => ({ page: 1, limit: 2, cursor, orderBy })),
  ];
}

interface StoreFixture {
  store: Store;
  dispose(): Promise<void>;
}

async function expectHistoryMatchesReplays(freshStore: () => Promise<StoreFixture>, numRuns: number) {
  await fc.assert(
    fc.asyncProperty(fc.array(step, { minLength: 1, maxLength: 25 }), fc.array(fc.nat(), { minLength: 1, maxLength: 3 }), async (steps, picks) => {
      const fixture = await freshStore();
      try {
        const { live, head, chain } = await follow(fixture.store, steps);
        for (const pick of picks) {
          const height = head === 0 ? 0 : 1 + (pick % head);
          expect(await reads(storeAtHeight(live, height))).toEqual(await reads(await replayed(chain, height)));
          if (height > 0) expect(await blockIdAt(live, height)).toBe(chain[height - 1].id);
        }
      } finally {
        await fixture.dispose();
      }
    }),
    { numRuns },
  );
}

describe('the store as it stood at a height', () => {
  it('answers every read as a fresh replay of the followed chain up to that height, reverts included', async () => {
    await expectHistoryMatchesReplays(async () => ({ store: new EmbeddedStore(), dispose: async () => {} }), 60);
  });
});

// The same reads where the read model is in MongoDB, where MONGO_URL names a server.
const mongoUrl = process.env.MONGO_URL;
const describeWithMongo = mongoUrl ? describe : describe.skip;

describeWithMongo(`the store as it stood at a height, in MongoDB${mongoUrl ? '' : ' (skipped: no MONGO_URL)'}`, () => {
  it('answers every read as a fresh replay of the followed chain up to that height', async () => {
    await expectHistoryMatchesReplays(() => freshMongoStore(mongoUrl!, 'history'), 10);
  }, 300_000);
});
