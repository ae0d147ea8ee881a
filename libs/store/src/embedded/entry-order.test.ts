import type { Doc } from '../types';
import { sortFieldReader } from './entry-order';
import { readSortValue } from './sorting';

describe('sortFieldReader', () => {
  it('reads top-level and nested fields exactly as readSortValue does', () => {
    const docs: Doc[] = [
      { _id: 'a', f: 1 },
      { _id: 'b' },
      { _id: 'c', f: null },
      { _id: 'd', f: undefined },
      { _id: 'e', f: [2, 1] },
      { _id: 'f', f: { g: 'x' } },
      { _id: 'g', n: { f: 1 }, f: [{ g: 1 }, { g: 2 }] },
    ];
    for (const field of ['f', 'toString', 'n.f', 'f.g', 'f.0'])
      for (const doc of docs) expect(sortFieldReader(field)(doc)).toEqual(readSortValue(doc, field));
  });
});
