import fc from 'fast-check';
import type { Endpoint, Parameter } from './endpoints';

/** Generators of hostile path ids and query strings, in wire form (already URL-encoded). */

const HEX = '0123456789abcdef';
export const hexString = (length: number) => fc.string({ unit: fc.constantFrom(...HEX), minLength: length, maxLength: length });

/** Escapes a percent-decoder may choke on or turn into something else (slashes, NUL, dots, broken UTF-8). */
const PERCENT_ESCAPES = [
  '%00',
  '%2F',
  '%2f',
  '%5C',
  '%2e',
  '%2E%2E',
  '%25',
  '%',
  '%ZZ',
  '%E0%A4%A',
  '%C0%AF',
  '%FF',
  '%0A',
  '%0D%0A',
  '%20',
  '%3F',
  '%23',
  '%u0041',
];
const PROTOTYPE_NAMES = ['__proto__', 'constructor', 'prototype', 'hasOwnProperty', 'toString', 'valueOf'];
export const OPERATOR_NAMES = [
  '$where',
  '$gt',
  '$gte',
  '$lt',
  '$ne',
  '$in',
  '$nin',
  '$or',
  '$and',
  '$nor',
  '$not',
  '$regex',
  '$expr',
  '$function',
  '$exists',
  '$elemMatch',
  '$all',
  '$size',
  '$type',
  '$text',
  '$jsonSchema',
  '$mod',
];
export { PROTOTYPE_NAMES };

const unicodeText = (maxLength: number) => fc.string({ unit: 'grapheme', maxLength });
const encoded = (text: fc.Arbitrary<string>) => text.map(encodeURIComponent);

/** The id length a parameter asks for; a group name has none. */
function idLength(parameter: Parameter): number | undefined {
  return parameter.schema.pattern && parameter.schema.minLength === parameter.schema.maxLength ? parameter.schema.minLength : undefined;
}

function nonHexOfLength(length: number): fc.Arbitrary<string> {
  return fc
    .tuple(hexString(length), fc.nat(length - 1), fc.constantFrom('g', 'z', 'G', 'x', '-', '_', '.', '~', '!', ' ', 'é'))
    .map(([hex, at, intruder]) => encodeURIComponent(hex.slice(0, at) + intruder + hex.slice(at + 1)));
}

/** A path segment for `parameter`: valid, nearly valid, hostile, or an id that exists. */
export function idSegment(parameter: Parameter, existing: string[]): fc.Arbitrary<string> {
  const length = idLength(parameter) ?? 64;
  const lengths = fc.integer({ min: 0, max: 300 }).filter((candidate) => candidate !== length);
  const variants: fc.Arbitrary<string>[] = [
    hexString(length),
    hexString(length).map((hex) => hex.toUpperCase()),
    lengths.chain(hexString),
    nonHexOfLength(length),
    encoded(unicodeText(80)),
    fc.array(fc.oneof(fc.constantFrom(...PERCENT_ESCAPES), hexString(4)), { minLength: 1, maxLength: 8 }).map((parts) => parts.join('')),
    fc.integer({ min: 1_000, max: 20_000 }).map((size) => 'a'.repeat(size)),
    fc.constantFrom('.', '..', '%2e%2e', '%20', '+', ...PROTOTYPE_NAMES, ...OPERATOR_NAMES.map(encodeURIComponent)),
  ];
  if (existing.length > 0) {
    const known = fc.constantFrom(...existing);
    variants.push(
      known.map(encodeURIComponent),
      known.map((id) => encodeURIComponent(id.toUpperCase())),
      fc.tuple(known, fc.constantFrom('0', 'x', '%00', '/', '%2F', '?')).map(([id, suffix]) => encodeURIComponent(id) + suffix),
    );
  }
  return fc.oneof(...variants);
}

/** `%` wildcards of group names and public keys (`%` runs between literal pieces, 40 and more of them). */
export function wildcardPattern(): fc.Arbitrary<string> {
  const run = fc.integer({ min: 1, max: 12 }).map((count) => '%'.repeat(count));
  const literal = fc.oneof(
    fc.constantFrom('a', 'z', 'T', 'Test', '0', '03', '_', '.*', '(', ')', '\\', '[', '+', '?', '^', '$', '|', '{2}'),
    hexString(6),
    unicodeText(6),
  );
  return fc.oneof(
    fc.array(fc.oneof(run, literal), { minLength: 1, maxLength: 90 }).map((pieces) => pieces.join('')),
    fc.tuple(fc.integer({ min: 1, max: 60 }), fc.constantFrom('z', '!', 'Zz', '%00')).map(([count, tail]) => '%'.repeat(count) + tail),
    fc
      .tuple(fc.integer({ min: 40, max: 300 }), fc.integer({ min: 40, max: 80 }))
      .map(([size, wildcards]) => `${'a%'.repeat(wildcards)}${'a'.repeat(size)}!`),
  );
}

const HOSTILE_VALUES = [
  '',
  ' ',
  '0',
  '-1',
  '-0',
  '1.5',
  '1e3',
  '0x10',
  '+1',
  'NaN',
  'Infinity',
  'true',
  'TRUE',
  'tRuE',
  'yes',
  '1',
  'null',
  'undefined',
  '[]',
  '{}',
  'name:asc',
  ':desc',
  'a:b:c',
  'timestamp:ASC',
  'timestamp:desc',
  'expiration.blockHeight:desc',
  '__proto__:asc',
  'constructor:desc',
  '%',
  '%%',
  'a%b',
  '%Test%',
  ...PROTOTYPE_NAMES,
  ...OPERATOR_NAMES,
];

const hugeNumber = fc.oneof(
  fc.bigInt({ min: -(2n ** 200n), max: 2n ** 200n }).map(String),
  fc.integer({ min: 16, max: 400 }).map((digits) => '9'.repeat(digits)),
  fc.constantFrom('9007199254740991', '9007199254740992', '9007199254740993', '1e308', '1e309', '-9007199254740993'),
);

export function hostileValue(): fc.Arbitrary<string> {
  return fc.oneof(
    encoded(fc.constantFrom(...HOSTILE_VALUES)),
    hugeNumber,
    encoded(unicodeText(40)),
    fc.integer({ min: 2_000, max: 20_000 }).map((size) => 'x'.repeat(size)),
    fc.constantFrom(...PERCENT_ESCAPES),
  );
}

/** Values a forged cursor may hold: wrong types, operators, nesting, numbers JSON cannot keep. */
const forgedCursorValue = fc.oneof(
  fc.string({ maxLength: 12 }),
  fc.double(),
  fc.boolean(),
  fc.constantFrom(null, { $gt: '' }, ['0001'], {}, Number.POSITIVE_INFINITY, -0),
);

/**
 * Cursors a client could forge or mangle: the base64url of JSON in the token's
 * shape with wrong members, of any other JSON, and text that is not base64url.
 */
export function hostileCursor(): fc.Arbitrary<string> {
  const token = fc.record(
    {
      k: fc.constantFrom('a', 'b', 'l', 'x', '', 1),
      s: fc.oneof(fc.string({ maxLength: 10 }), fc.constant(42)),
      v: fc.oneof(fc.array(forgedCursorValue, { maxLength: 4 }), forgedCursorValue),
    },
    { requiredKeys: [] },
  );
  const rawJson = fc.constantFrom('{"k":"a","s":"AAAAAAAA","v":[1],"__proto__":{"k":"l"}}', '{"k":"a"', '{"k":"l","s":"AAAAAAAA","v":[]}', '');
  const base64url = (json: string) => Buffer.from(json).toString('base64url');
  return fc.oneof(
    fc.oneof(token, fc.jsonValue()).map((json) => base64url(JSON.stringify(json) ?? '')),
    rawJson.map(base64url),
    fc.string({ unit: fc.constantFrom(...'AZaz09-_=+/.%~ '), maxLength: 80 }).map(encodeURIComponent),
    fc.integer({ min: 2_000, max: 20_000 }).map((size) => 'A'.repeat(size)),
    hostileValue(),
  );
}

const unknownKey = fc.oneof(
  fc.constantFrom(...PROTOTYPE_NAMES, ...OPERATOR_NAMES.map(encodeURIComponent), 'a.b', 'meta', 'data', 'sort', 'LIMIT', 'Page', '%00', ''),
  encoded(fc.string({ minLength: 1, maxLength: 12 })),
);

/** `key=value` pairs: known keys with hostile values, unknown keys, bracket arrays, bare keys. */
function queryPair(endpoint: Endpoint): fc.Arbitrary<string> {
  const known = endpoint.queryParameters.length
    ? fc.constantFrom(...endpoint.queryParameters.map((parameter) => parameter.name))
    : fc.constant('page');
  // A route that pages by cursor gets forged cursors besides the hostile values every key gets.
  const cursors = endpoint.queryParameters.some((parameter) => parameter.name === 'cursor')
    ? [{ weight: 2, arbitrary: hostileCursor().map((cursor) => `cursor=${cursor}`) }]
    : [];
  return fc.oneof(
    ...cursors,
    { weight: 4, arbitrary: fc.tuple(known, hostileValue()).map(([key, value]) => `${key}=${value}`) },
    { weight: 2, arbitrary: fc.tuple(unknownKey, hostileValue()).map(([key, value]) => `${key}=${value}`) },
    {
      weight: 1,
      arbitrary: fc
        .tuple(known, fc.constantFrom('[]', '[0]', '[a]', '%5B%5D', '[__proto__]'), hostileValue())
        .map(([key, bracket, value]) => `${key}${bracket}=${value}`),
    },
    { weight: 1, arbitrary: fc.oneof(known, unknownKey, fc.constant('=')) },
  );
}

/** A whole query string, `?` included, possibly with repeated keys or empty pieces. */
export function queryString(endpoint: Endpoint): fc.Arbitrary<string> {
  return fc.oneof(
    fc
      .tuple(fc.array(queryPair(endpoint), { minLength: 1, maxLength: 6 }), fc.boolean())
      .map(([pairs, repeatFirst]) => `?${(repeatFirst ? [pairs[0], ...pairs] : pairs).join('&')}`),
    fc.constantFrom('?', '?&', '?&&&', '?=', '?=x', '?#', '??page=1', '?&page=1&'),
  );
}

/** A query string putting a wildcard pattern in each parameter whose description offers `%`. */
export function wildcardQuery(parameters: Parameter[]): fc.Arbitrary<string> {
  return fc
    .tuple(fc.subarray(parameters, { minLength: 1 }), fc.array(wildcardPattern(), { minLength: parameters.length, maxLength: parameters.length }))
    .map(([chosen, patterns]) => `?${chosen.map((parameter, index) => `${parameter.name}=${encodeURIComponent(patterns[index])}`).join('&')}`);
}

export const offersWildcards = (parameter: Parameter) => parameter.in === 'query' && (parameter.schema.description ?? '').includes('`%`');
