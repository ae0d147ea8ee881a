import fc from 'fast-check';
import { OPERATOR_NAMES, PROTOTYPE_NAMES } from './arbitraries';
import { shownAs } from './shown';

/** Search bodies as bytes: hostile member names, sizes around the limit, deep nesting, broken JSON. */
export const BODY_LIMIT_BYTES = 64 * 1024;

const DOTTED_NAMES = ['a.b', 'size.cm', '.', '..', 'a..b', 'expiration.blockHeight', 'attributes.name', '$ref', 'a$b'];

/** A JSON object written member by member, so `__proto__` and repeated names reach the wire as they are. */
interface Members {
  members: [string, JsonTree][];
}
type JsonTree = null | boolean | number | string | JsonTree[] | Members;

function writeJson(tree: JsonTree): string {
  if (Array.isArray(tree)) return `[${tree.map(writeJson).join(',')}]`;
  if (tree !== null && typeof tree === 'object')
    return `{${tree.members.map(([name, value]) => `${JSON.stringify(name)}:${writeJson(value)}`).join(',')}}`;
  return JSON.stringify(tree);
}

export interface SearchBody {
  bytes: Buffer;
  /** Top-level member names; an operator or prototype name among them must match nothing. */
  topLevelNames: string[];
}

function fromTree(tree: JsonTree): SearchBody {
  const bytes = Buffer.from(writeJson(tree));
  return shownAs(
    { bytes, topLevelNames: tree !== null && typeof tree === 'object' && !Array.isArray(tree) ? tree.members.map(([name]) => name) : [] },
    bytes,
  );
}

function fromText(text: string | Buffer): SearchBody {
  const bytes = Buffer.from(text);
  return shownAs({ bytes, topLevelNames: [] }, bytes);
}

function memberName(schemaNames: string[]): fc.Arbitrary<string> {
  return fc.oneof(
    { weight: 3, arbitrary: fc.constantFrom(...OPERATOR_NAMES, ...PROTOTYPE_NAMES, ...DOTTED_NAMES) },
    { weight: schemaNames.length ? 3 : 0, arbitrary: fc.constantFrom(...(schemaNames.length ? schemaNames : ['name'])) },
    { weight: 1, arbitrary: fc.string({ unit: 'grapheme', maxLength: 12 }) },
  );
}

function jsonTree(schemaNames: string[]): fc.Arbitrary<JsonTree> {
  const scalar = fc.oneof(
    fc.constant(null),
    fc.boolean(),
    fc.double({ noNaN: true, noDefaultInfinity: true }),
    fc.integer(),
    fc.string({ unit: 'grapheme', maxLength: 30 }),
    fc.constantFrom('', '0', '1e400', '9007199254740993', '03'.padEnd(66, 'a'), 'f'.repeat(64)),
  );
  const { tree } = fc.letrec<{ tree: JsonTree; object: Members }>((tie) => ({
    tree: fc.oneof({ depthSize: 'small', withCrossShrink: true }, scalar, fc.array(tie('tree'), { maxLength: 4 }), tie('object')),
    object: fc.array(fc.tuple(memberName(schemaNames), tie('tree')), { maxLength: 5 }).map((members) => ({ members })),
  }));
  return tree;
}

function sizedBody(): fc.Arbitrary<SearchBody> {
  const sizes = fc.oneof(
    fc.integer({ min: 0, max: 80 * 1024 }),
    fc.constantFrom(BODY_LIMIT_BYTES - 1, BODY_LIMIT_BYTES, BODY_LIMIT_BYTES + 1, 256 * 1024, 1024 * 1024, 3 * 1024 * 1024),
  );
  // `{"name":"xxx…"}` padded to exactly `size` bytes.
  return sizes.map((size) => fromText(`{"name":"${'x'.repeat(Math.max(0, size - 11))}"}`));
}

function deeplyNested(): fc.Arbitrary<SearchBody> {
  return fc.tuple(fc.integer({ min: 1, max: 20_000 }), fc.constantFrom('object', 'array', 'mixed')).map(([depth, shape]) => {
    if (shape === 'array') return fromText(`{"a":${'['.repeat(depth)}${']'.repeat(depth)}}`);
    const open = shape === 'object' ? '{"a":' : '{"a":[';
    const close = shape === 'object' ? '}' : ']}';
    return fromText(`${open.repeat(depth)}1${close.repeat(depth)}`);
  });
}

function malformed(schemaNames: string[]): fc.Arbitrary<SearchBody> {
  return fc.oneof(
    fc
      .constantFrom(
        '{',
        '}',
        '{"a":}',
        '{"a":1,}',
        "{'a':1}",
        'NaN',
        '',
        ' ',
        '\ufeff{}',
        'null',
        '[]',
        '"x"',
        '1',
        '{"a":1}{"b":2}',
        '{"a":"\\uZZZZ"}',
        '{"a":1e999999}',
        '{"__proto__":{"polluted":1}}',
      )
      .map(fromText),
    fc.constant(fromText(Buffer.from([0x7b, 0x22, 0x61, 0x22, 0x3a, 0x22, 0xff, 0xfe, 0x22, 0x7d]))),
    fc.tuple(jsonTree(schemaNames), fc.nat()).map(([tree, cut]) => {
      const text = writeJson(tree);
      return fromText(text.slice(0, cut % Math.max(text.length, 1)));
    }),
  );
}

export function searchBody(schemaNames: string[]): fc.Arbitrary<SearchBody> {
  return fc.oneof(
    { weight: 5, arbitrary: jsonTree(schemaNames).map(fromTree) },
    {
      weight: 4,
      arbitrary: fc.array(fc.tuple(memberName(schemaNames), jsonTree(schemaNames)), { maxLength: 5 }).map((members) => fromTree({ members })),
    },
    { weight: 2, arbitrary: sizedBody() },
    { weight: 1, arbitrary: deeplyNested() },
    { weight: 2, arbitrary: malformed(schemaNames) },
  );
}

export const contentType = fc.constantFrom(
  'application/json',
  'application/json',
  'application/json; charset=utf-8',
  'APPLICATION/JSON',
  'text/plain',
  'application/x-www-form-urlencoded',
  'multipart/form-data; boundary=x',
  'application/json; charset=utf-16',
  'application/jsonx',
  'application/merge-patch+json',
  '*/*',
  'application/json, text/plain',
  ';;;',
  '',
  undefined,
);

/** Names that must never act as an operator or reach a prototype: a body using one at the top matches nothing. */
export const isInjectionName = (name: string) => name.startsWith('$') || PROTOTYPE_NAMES.includes(name);

/** Several bodies over the limit, for senders at the same time. */
export const oversizedBodies = fc.array(fc.integer({ min: BODY_LIMIT_BYTES + 1, max: 4 * 1024 * 1024 }), { minLength: 2, maxLength: 5 });

const hexOfLength = (length: number) => fc.string({ unit: fc.constantFrom(...'0123456789abcdefABCDEF'), minLength: length, maxLength: length });

/** Well-formed ids: existing ones in any letter case, and unknown ones. */
function wellFormedId(existing: string[]): fc.Arbitrary<string> {
  const known = existing.length ? fc.constantFrom(...existing) : hexOfLength(64);
  const anyCase = fc
    .tuple(known, fc.nat())
    .map(([id, seed]) => [...id].map((char, at) => ((seed >> (at % 30)) & 1 ? char.toUpperCase() : char)).join(''));
  return fc.oneof({ weight: 3, arbitrary: known }, { weight: 2, arbitrary: anyCase }, { weight: 1, arbitrary: hexOfLength(64) });
}

/** Everything an id must not be: other lengths, other characters, other types. */
function malformedId(existing: string[]): fc.Arbitrary<JsonTree> {
  const id = wellFormedId(existing);
  const intruder = fc.tuple(id, fc.nat(63), fc.constantFrom('g', 'G', 'x', ' ', '-', '.', '%', '\u0000', 'é', '٣'));
  return fc.oneof(
    fc
      .integer({ min: 0, max: 90 })
      .filter((length) => length !== 64)
      .chain(hexOfLength),
    intruder.map(([hex, at, char]) => hex.slice(0, at) + char + hex.slice(at + 1)),
    id.map((hex) => `${hex} `),
    fc.constantFrom<JsonTree>(null, true, 0, -1.5, '', '$where', '__proto__', [], { members: [] }),
    fc.integer(),
    fc.string({ unit: 'grapheme', maxLength: 70 }),
    id.map((hex): JsonTree => [hex]),
    id.map((hex): JsonTree => ({ members: [['$in', [hex]]] })),
  );
}

/** Lists of ids: well-formed ones, or with malformed ones among them; mostly a few, sometimes at or past the limit of 100, or none. */
function batchIds(existing: string[]): fc.Arbitrary<JsonTree[]> {
  const valid = wellFormedId(existing);
  const mixed: fc.Arbitrary<JsonTree> = fc.oneof({ weight: 3, arbitrary: valid }, { weight: 1, arbitrary: malformedId(existing) });
  const sizes = fc.oneof({ weight: 6, arbitrary: fc.integer({ min: 1, max: 8 }) }, { weight: 1, arbitrary: fc.constantFrom(0, 99, 100, 101, 150) });
  const list = (id: fc.Arbitrary<JsonTree>) =>
    sizes.chain((size) =>
      // A list past a handful is one id over and over after its first, so generating it stays cheap.
      size <= 8
        ? fc.array(id, { minLength: size, maxLength: size })
        : fc.tuple(id, id).map(([first, rest]) => [first, ...Array(size - 1).fill(rest)]),
    );
  return fc.oneof(list(valid), list(mixed));
}

export interface BatchBody {
  bytes: Buffer;
}

/** Bodies of batch lookups: well-formed ones with known and unknown ids, and each way one can be wrong. */
export function batchBody(existing: string[]): fc.Arbitrary<BatchBody> {
  const ids = batchIds(existing);
  const otherKey = fc.constantFrom('id', 'IDS', 'ids ', 'limit', 'transform', '$where', '__proto__', 'constructor', '0', '');
  const asText = (tree: JsonTree): BatchBody => shownAs({ bytes: Buffer.from(writeJson(tree)) }, Buffer.from(writeJson(tree)));
  return fc.oneof(
    { weight: 8, arbitrary: ids.map((list) => asText({ members: [['ids', list]] })) },
    {
      weight: 2,
      arbitrary: fc.tuple(ids, otherKey, jsonTree([]), fc.boolean()).map(([list, key, value, keyFirst]) =>
        asText({
          members: keyFirst
            ? [
                [key, value],
                ['ids', list],
              ]
            : [
                ['ids', list],
                [key, value],
              ],
        }),
      ),
    },
    { weight: 1, arbitrary: fc.tuple(otherKey, jsonTree([])).map(([key, value]) => asText({ members: [[key, value]] })) },
    { weight: 1, arbitrary: jsonTree(['ids']).map((value) => asText({ members: [['ids', value]] })) },
    { weight: 1, arbitrary: ids.map((list) => asText(list)) },
    { weight: 1, arbitrary: malformed(['ids']).map(({ bytes }) => shownAs({ bytes }, bytes)) },
    {
      weight: 1,
      arbitrary: fc.tuple(ids, fc.constantFrom(BODY_LIMIT_BYTES - 40, BODY_LIMIT_BYTES, BODY_LIMIT_BYTES + 1, 200 * 1024)).map(([list, size]) => {
        const text = writeJson({ members: [['ids', list]] });
        // Spaces after the object: still the same JSON, as long as the limit allows.
        const bytes = Buffer.from(text.padEnd(Math.max(size, text.length), ' '));
        return shownAs({ bytes }, bytes);
      }),
    },
  );
}
