import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { EMPTY_POSITION, FileLedgerSource, ProjectionRunner, type LedgerEvent, type LedgerStore } from '@ledger-api/ledger';
import { readModel, startProjectionRunner } from '@ledger-api/ledger/testing';
import { createNftProjection, EXCHANGE_LOOKUP_MEMBERS, LEDGER_ORDER } from '@ledger-api/nft-read-model';
import { silentLogger } from '@ledger-api/observability';
import { EmbeddedStore, type Doc, type Filter, type Sort } from '@ledger-api/store';
import { freshMongoStore } from '@ledger-api/store/testing';
import { Query } from 'mingo';
import { compare } from 'mingo/util';
import { generateDemoLedger, writeDemoLedger } from './generator';
import { finalHistory } from './summary';

/**
 * A demo ledger large enough to reorganise several times and to fill every
 * collection's indexes, replayed from its file as a projector does, must end
 * in exactly the read model of its final history replayed from scratch, and
 * that store, with the indexes it kept up to date block by block and revert
 * by revert, must answer every list query as a full evaluation of its
 * documents does.
 */
const LEDGER = { seed: 5, blockCount: 2000 };
const projection = createNftProjection({ area: 'replay-equality', networkVersion: 23 });
const LIST_COLLECTIONS = projection.collections.filter((spec) => spec.indexes.length > 0);

/** The projection's documents and undo records; the position differs by design (stream sequence, generation). */
async function documents(store: LedgerStore): Promise<Record<string, Doc[]>> {
  const { _ledger: _position, ...model } = await readModel(store, projection);
  return model;
}

async function replayFile<S extends LedgerStore>(path: string, store: S): Promise<S> {
  const runner = new ProjectionRunner({ store, projection, logger: silentLogger() });
  await runner.init();
  await new FileLedgerSource(path).run(async (event, streamSeq) => {
    await runner.handle(event, streamSeq);
  }, EMPTY_POSITION);
  return store;
}

/** MongoDB's order of two values, as mingo gives it, which the store follows. */
function inSortOrder(sort: Sort) {
  const fields = Object.entries(sort);
  return (a: Doc, b: Doc) => {
    for (const [field, direction] of fields) {
      const order = compare(readPath(a, field) ?? null, readPath(b, field) ?? null);
      if (order !== 0) return order * direction;
    }
    return 0;
  };
}

/** A sort, its opposite, and the key with its leading field or its other fields turned around. */
function sortsOf(key: Sort): Sort[] {
  const entries = Object.entries(key);
  const turned = (turn: (index: number) => boolean): Sort =>
    Object.fromEntries(entries.map(([field, direction]: [string, 1 | -1], index) => [field, turn(index) ? -direction : direction])) as Sort;
  return [key, turned(() => true), turned((index) => index === 0), turned((index) => index > 0)];
}

interface ListQuery {
  filter: Filter;
  sorts: Sort[];
}

/**
 * Every indexed sort of the whole collection, and filters with values some
 * document holds: an equality on the leading field of each index, read in
 * that index's sorts and in ledger order, and each search-form member, read
 * in ledger order.
 */
function queriesOf(docs: Doc[], keys: Sort[]): ListQuery[] {
  const sample = docs[Math.floor(docs.length / 3)];
  const ledgerOrder = sortsOf(LEDGER_ORDER);
  const searchForm = Object.entries((sample?.searchForm as Record<string, unknown> | undefined) ?? {}).filter(
    ([, value]) => typeof value !== 'object',
  );
  return [
    { filter: {}, sorts: [...keys.flatMap(sortsOf), { _id: 1 }, { _id: -1 }] },
    ...keys.map((key) => {
      const [field] = Object.keys(key);
      return { filter: { [field]: { $eq: readPath(sample, field) } }, sorts: [...sortsOf(key), ...ledgerOrder] };
    }),
    ...searchForm.map(([member, value]) => ({ filter: { [`searchForm.${member}`]: { $eq: value } }, sorts: ledgerOrder })),
  ];
}

function readPath(doc: Doc | undefined, field: string): unknown {
  return field.split('.').reduce<unknown>((value, key) => (value as Record<string, unknown> | undefined)?.[key], doc);
}

describe('the NFT read model of a demo ledger replayed from its file', () => {
  let directory: string;
  let events: LedgerEvent[];
  let replayed: EmbeddedStore;

  beforeAll(async () => {
    directory = mkdtempSync(join(tmpdir(), 'replay-equality-'));
    const path = join(directory, 'ledger.jsonl');
    writeDemoLedger(path, LEDGER);
    events = generateDemoLedger(LEDGER);
    replayed = await replayFile(path, new EmbeddedStore());
  }, 120_000);

  afterAll(() => rmSync(directory, { recursive: true, force: true }));

  it('is the read model of its final history alone: reverted blocks leave nothing behind', async () => {
    expect(events.some((event) => event.event === 'block.reverted')).toBe(true);
    const scratch = await startProjectionRunner(projection);
    await scratch.handle(...finalHistory(events).map((block): LedgerEvent => ({ event: 'block.applied', block })));
    expect(await documents(replayed)).toEqual(await documents(scratch.store));
  });

  it.each(['base', 'exchange'] as const)(
    'holds, for the %s area, the documents of every collection that area reads, as far as it reads them',
    async (lists) => {
      const area = createNftProjection({ area: `replay-equality-${lists}`, networkVersion: 23, lists });
      const scratch = await startProjectionRunner(area);
      await scratch.handle(...events);
      const [full, model] = [await documents(replayed), await readModel(scratch.store, area)];
      const kept = area.collections.map((spec) => spec.name);
      expect(kept.length).toBeLessThan(projection.collections.length);
      // The base area keeps of auctions and bids only what it reads.
      const lookups: Record<string, readonly string[]> = lists === 'base' ? EXCHANGE_LOOKUP_MEMBERS : {};
      for (const name of kept) {
        const members = lookups[name];
        const expected = members
          ? full[name].map((doc) =>
              Object.fromEntries(['_id', ...members].filter((member) => Object.hasOwn(doc, member)).map((member) => [member, doc[member]])),
            )
          : full[name];
        expect({ name, docs: model[name] }).toEqual({ name, docs: expected });
      }
    },
  );

  it('answers every indexed sort, either way, of every filter as a full evaluation of its documents does', async () => {
    for (const { name, indexes } of LIST_COLLECTIONS) {
      const collection = replayed.collection(name);
      const all = await collection.find({});
      const keys = indexes.map((index) => index.key).filter((key) => !Object.keys(key)[0].includes('$'));
      for (const { filter, sorts } of queriesOf(all, keys)) {
        const query = new Query(filter);
        const matches = all.filter((doc) => query.test(doc));
        expect(await collection.count(filter)).toBe(matches.length);
        for (const sort of sorts) {
          const expected = [...matches].sort(inSortOrder(sort)).map((doc) => doc._id);
          const found = await collection.find(filter, { sort, skip: 7, limit: 25 });
          expect({ name, filter, sort, ids: found.map((doc) => doc._id) }).toEqual({ name, filter, sort, ids: expected.slice(7, 32) });
        }
      }
    }
  });
});

// The same replay into MongoDB, where MONGO_URL names a server: what it stores, undo records and
// transactions included, is what the embedded store holds, member for member.
const mongoUrl = process.env.MONGO_URL;
const describeWithMongo = mongoUrl ? describe : describe.skip;

describeWithMongo(`the same read model replayed into MongoDB${mongoUrl ? '' : ' (skipped: no MONGO_URL)'}`, () => {
  it('holds the documents and undo records of the embedded store, each transaction as plain JSON', async () => {
    const directory = mkdtempSync(join(tmpdir(), 'replay-equality-mongo-'));
    const fixture = await freshMongoStore(mongoUrl!, 'replay_equality');
    try {
      const path = join(directory, 'ledger.jsonl');
      writeDemoLedger(path, LEDGER);
      const [embedded, mongo] = [await replayFile(path, new EmbeddedStore()), await replayFile(path, fixture.store)];
      expect(await documents(mongo)).toEqual(await documents(embedded));
    } finally {
      await fixture.dispose();
      rmSync(directory, { recursive: true, force: true });
    }
  }, 600_000);
});
