import type { KeysetPosition, Sort } from '@ledger-api/store';
import { decodeCursor, encodeCursor, sortFingerprint } from './cursor';

const ledgerOrder: Sort = { blockHeight: 1, sequence: 1 };
const byFee: Sort = { 'sortKeys.fee': -1, blockHeight: 1, sequence: 1 };
const tokenOf = (token: unknown) => Buffer.from(JSON.stringify(token)).toString('base64url');

describe('the cursor codec', () => {
  it('reads back every position it writes, with the fingerprint of the sort', () => {
    const positions: KeysetPosition[] = [
      { kind: 'after', values: [12, 3] },
      { kind: 'before', values: ['0004129', 'ab\u00e9%', true] },
      { kind: 'last' },
    ];
    for (const position of positions) {
      expect(decodeCursor(encodeCursor(position, byFee))).toEqual({ ...position, sort: sortFingerprint(byFee) });
    }
  });

  it('writes the first page as the empty cursor, and a token as URL-safe text', () => {
    expect(encodeCursor({ kind: 'first' }, ledgerOrder)).toBe('');
    expect(decodeCursor('')).toEqual({ kind: 'first' });
    expect(encodeCursor({ kind: 'after', values: ['\u{1F600}?/+=', 1] }, ledgerOrder)).toMatch(/^[A-Za-z0-9_-]+$/);
  });

  it('tells sorts apart by their fields and directions', () => {
    const sorts: Sort[] = [ledgerOrder, { blockHeight: -1, sequence: 1 }, { sequence: 1, blockHeight: 1 }, byFee];
    const fingerprints = sorts.map(sortFingerprint);
    expect(new Set(fingerprints).size).toBe(4);
    expect(sortFingerprint({ blockHeight: 1, sequence: 1 })).toBe(sortFingerprint(ledgerOrder));
  });

  it('refuses text that is not a token it wrote', () => {
    const fingerprint = sortFingerprint(ledgerOrder);
    const valid = encodeCursor({ kind: 'after', values: [1, 2] }, ledgerOrder);
    const refused = [
      'x',
      '%%%',
      `${valid}=`,
      `${valid}A`,
      valid.replace(/.$/, '.'),
      'a'.repeat(5000),
      tokenOf([1, 2]),
      tokenOf('after'),
      tokenOf(null),
      tokenOf({ k: 'x', s: fingerprint, v: [1, 2] }),
      tokenOf({ k: 'a', s: 'short', v: [1, 2] }),
      tokenOf({ k: 'a', s: fingerprint }),
      tokenOf({ k: 'a', s: fingerprint, v: [] }),
      tokenOf({ k: 'a', s: fingerprint, v: [1, null] }),
      tokenOf({ k: 'a', s: fingerprint, v: [1, { $gt: 1 }] }),
      tokenOf({ k: 'a', s: fingerprint, v: [1, [2]] }),
      tokenOf({ k: 'l', s: fingerprint, v: [1, 2] }),
      tokenOf({ s: fingerprint, k: 'a', v: [1, 2] }),
      tokenOf({ k: 'a', s: fingerprint, v: [1, 2], extra: true }),
      Buffer.from(`{"k":"a","s":"${fingerprint}","v":[1,2],"__proto__":{"k":"l"}}`).toString('base64url'),
      Buffer.from(`{"k":"a","s":"${fingerprint}","v":[1,1e999]}`).toString('base64url'),
      Buffer.from(`{"k":"a","s":"${fingerprint}","v":[1, 2]}`).toString('base64url'),
      Buffer.from([0xff, 0xfe, 0x00]).toString('base64url'),
    ];
    for (const text of refused) expect({ text, decoded: decodeCursor(text) }).toEqual({ text, decoded: undefined });
  });
});
