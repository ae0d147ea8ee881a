import { copyDocument, freezeDocument } from './copy-document';
import { lazilyUnpacked, packedTextOf } from './lazy-json';
import { packedJson } from './packed-json';
import * as packing from './packed-json';

const tx = { id: 'ab'.repeat(32), type: 2, asset: { nftIds: ['cd'.repeat(32)] }, fee: '5' };

describe('a lazily unpacked value', () => {
  it('is not unpacked while it is only carried along into another document', () => {
    const unpack = jest.spyOn(packing, 'unpackedJson');
    try {
      const value = lazilyUnpacked(packedJson(tx));
      const built = { ...{ _id: 'r', tx: value }, owner: 'k2' };
      expect(built.tx).toBe(value);
      expect(unpack).not.toHaveBeenCalled();
      expect((value as typeof tx).asset.nftIds).toEqual(tx.asset.nftIds);
      expect(unpack).toHaveBeenCalledTimes(1);
    } finally {
      unpack.mockRestore();
    }
  });

  it('gives its packed text without unpacking it, before and after it is filled; a plain value has none', () => {
    const unpack = jest.spyOn(packing, 'unpackedJson');
    try {
      const text = packedJson(tx);
      const value = lazilyUnpacked(text) as typeof tx;
      expect(packedTextOf(value)).toBe(text);
      expect(unpack).not.toHaveBeenCalled();
      expect(value.fee).toBe(tx.fee);
      expect(packedTextOf(value)).toBe(text);
      expect(packedTextOf(tx)).toBeUndefined();
    } finally {
      unpack.mockRestore();
    }
  });

  it('behaves as the plain value: members, keys, JSON text, equality and copies', () => {
    const value = lazilyUnpacked(packedJson(tx));
    expect(Object.keys(value as object)).toEqual(Object.keys(tx));
    expect('fee' in (value as object)).toBe(true);
    expect(JSON.stringify(value)).toBe(JSON.stringify(tx));
    expect(value).toEqual(tx);
    expect(copyDocument(value)).toEqual(tx);
  });

  it('is an array where the value is one, and a primitive at once', () => {
    const list = lazilyUnpacked(packedJson([1, 'ef'.repeat(20), { n: 2 }]));
    expect(Array.isArray(list)).toBe(true);
    expect(list).toEqual([1, 'ef'.repeat(20), { n: 2 }]);
    expect(lazilyUnpacked(packedJson('ab'.repeat(20)))).toBe('ab'.repeat(20));
    expect(lazilyUnpacked(packedJson(null))).toBeNull();
  });

  it('freezes as the plain value does, so the writer’s guard refuses changes to it', () => {
    const value = freezeDocument(lazilyUnpacked(packedJson(tx))) as typeof tx;
    expect(Object.isFrozen(value) && Object.isFrozen(value.asset)).toBe(true);
    expect(() => {
      value.fee = '6';
    }).toThrow(TypeError);
  });

  it('keeps a "__proto__" member a member', () => {
    const value = lazilyUnpacked(packedJson(JSON.parse('{"__proto__": {"polluted": true}, "n": 1}'))) as Record<string, unknown>;
    expect(Object.keys(value)).toEqual(['__proto__', 'n']);
    expect(Object.getPrototypeOf(value)).toBe(Object.prototype);
    expect((value as { polluted?: boolean }).polluted).toBeUndefined();
  });
});
