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
