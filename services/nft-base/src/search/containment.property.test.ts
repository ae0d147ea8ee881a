import { searchForm } from '@ledger-api/nft-read-model';
import { EmbeddedStore } from '@ledger-api/store';
import fc from 'fast-check';
import { containmentFilter } from './containment';
import { isPlainObject, type JsonObject } from './json-body';

/** docs/behaviour.md §5 containment, written directly on the JSON values. */
function contains(data: unknown, body: unknown): boolean {
  if (Array.isArray(body)) return Array.isArray(data) && body.every((element) => data.some((item) => contains(item, element)));
  if (isPlainObject(body)) {
    return isPlainObject(data) && Object.entries(body).every(([name, member]) => Object.hasOwn(data, name) && contains(data[name], member));
  }
  return data === body;
}

// Few names and scalars, so that random bodies often meet random documents.
const NAMES = [
  'a',
  'b',
  'size.cm',
  '.',
  'a.b',
  '$ref',
  '$where',
  '$gt',
  '$eq',
  '$elemMatch',
  '__proto__',
  'constructor',
  'toString',
  '',
  'n\0ul',
  '%',
  '%2E',
  '~a',
  '[]',
  '0',
  '1',
];
const SCALARS = [0, -0, 1, 1.0, 2.5, -3, '', 'a', '1', '$gt', '[]', true, false, null];

const { value: jsonValue } = fc.letrec<{ value: unknown; object: JsonObject }>((tie) => ({
  value: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    fc.constantFrom(...SCALARS),
    tie('object'),
    fc.array(tie('value'), { maxLength: 3 }),
  ),
  // fromEntries defines own members, as JSON.parse does, so `__proto__` stays a member.
  object: fc
    .uniqueArray(fc.tuple(fc.constantFrom(...NAMES), tie('value')), { maxLength: 3, selector: ([name]) => name })
    .map((entries) => Object.fromEntries(entries)),
}));
const jsonObject = jsonValue.filter(isPlainObject);

/**
 * A body made from the value: some of its members and elements, recursively,
 * which the value contains, with now and then a part replaced by any value,
 * or put into an array or object, or an array replaced by one of its
 * elements: the confusions between scalars, arrays and objects that §5 rules out.
 */
function bodyPart(pick: fc.GeneratorValue, value: unknown): unknown {
  const change = pick(fc.nat, { max: 7 });
  if (change === 0) return pick(() => jsonValue);
  if (change === 1) return [bodyPart(pick, value)];
  if (change === 2) return { [pick(fc.constantFrom, ...NAMES)]: bodyPart(pick, value) };
  if (Array.isArray(value)) {
    if (change === 3 && value.length > 0) return bodyPart(pick, value[0]);
    return value.filter(() => pick(fc.boolean)).map((element) => bodyPart(pick, element));
  }
  if (!isPlainObject(value)) return value;
  const kept = Object.entries(value).filter(() => pick(fc.boolean));
  return Object.fromEntries(kept.map(([name, member]) => [name, bodyPart(pick, member)]));
}

const scenario = fc.array(jsonObject, { minLength: 1, maxLength: 6 }).chain((documents) => {
  const fromDocument = fc.tuple(fc.nat({ max: documents.length - 1 }), fc.gen()).map(([index, pick]) => bodyPart(pick, documents[index]));
  const bodies = fc.array(fc.oneof(fromDocument.filter(isPlainObject), jsonObject), { minLength: 1, maxLength: 4 });
  return bodies.map((searchBodies) => ({ documents, bodies: searchBodies }));
});

async function storeOf(documents: JsonObject[]): Promise<EmbeddedStore> {
  const store = new EmbeddedStore();
  const docs = documents.map((attributes, index) => ({ _id: String(index), attributes, searchForm: searchForm(attributes) }));
  await store.applyWrites(docs.map((doc) => ({ collection: 'assets', id: doc._id, doc })));
  return store;
}

describe('containmentFilter on the search form', () => {
  it('finds exactly the documents that contain the body, for any names, nesting and values', async () => {
    await fc.assert(
      fc.asyncProperty(scenario, async ({ documents, bodies }) => {
        const assets = (await storeOf(documents)).collection('assets');
        for (const body of bodies) {
          const expected = documents.flatMap((attributes, index) => (contains(attributes, body) ? [String(index)] : []));
          const found = (await assets.find(containmentFilter(body as JsonObject))).map((doc) => doc._id);
          expect(found).toEqual(expected);
        }
      }),
      { numRuns: 1000 },
    );
  });

  it('matches the cases §5 names, as the reference does', async () => {
    const documents = [
      { traits: ['winged'], species: 'frog', 'size.cm': 12.5, $ref: 'x' },
      { traits: 'winged', species: ['frog'], size: { cm: 12.5 } },
      JSON.parse('{"__proto__":{"polluted":1},"tiers":[{"level":1},[2]],"rarity":null}') as JsonObject,
    ];
    const assets = (await storeOf(documents)).collection('assets');
    const cases: Array<[JsonObject, string[]]> = [
      [{ traits: 'winged' }, ['1']],
      [{ traits: ['winged'] }, ['0']],
      [{ traits: [{ name: 'winged' }] }, []],
      [{ traits: [[]] }, []],
      [{ traits: [{}] }, []],
      [{ species: ['frog'] }, ['1']],
      [{ 'size.cm': 12.5 }, ['0']],
      [{ size: { cm: 12.5 } }, ['1']],
      [{ $ref: 'x' }, ['0']],
      [{ $ref: { $exists: true } }, []],
      [JSON.parse('{"__proto__":{"polluted":1}}'), ['2']],
      [JSON.parse('{"__proto__":{}}'), ['2']],
      [{ tiers: [{}] }, ['2']],
      [{ tiers: [[]] }, ['2']],
      [{ tiers: [[2], { level: 1 }] }, ['2']],
      [{ tiers: [{ level: 2 }] }, []],
      [{ tiers: { level: 1 } }, []],
      [{ rarity: null }, ['2']],
      [{ missing: null }, []],
    ];
    for (const [body, expected] of cases) {
      const found = (await assets.find(containmentFilter(body))).map((doc) => doc._id);
      expect({ body, found, reference: documents.flatMap((attributes, index) => (contains(attributes, body) ? [String(index)] : [])) }).toEqual({
        body,
        found: expected,
        reference: expected,
      });
    }
  });
});
