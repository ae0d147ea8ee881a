import { expectWithinDeadline } from '@ledger-api/test-kit';
import { allOf, escapeRegex, likeFilter } from './query';

describe('likeFilter', () => {
  const matcher = (pattern: string, caseInsensitive = false) => {
    const filter = likeFilter(pattern, { caseInsensitive });
    if ('$eq' in filter) return (text: string) => filter.$eq === text;
    const regex = new RegExp(filter.$regex as string, (filter.$options as string) ?? '');
    return (text: string) => regex.test(text);
  };
  const matches = (pattern: string, text: string, caseInsensitive = false) => matcher(pattern, caseInsensitive)(text);

  it('matches exactly without a wildcard', () => {
    expect(likeFilter('Test')).toEqual({ $eq: 'Test' });
    expect(matches('Test', 'Testing')).toBe(false);
  });

  it('treats % as any run of characters', () => {
    expect(matches('Test%', 'Testing')).toBe(true);
    expect(matches('Test%', 'a Test')).toBe(false);
    expect(matches('%est%', 'a Testing b')).toBe(true);
    expect(matches('%', '')).toBe(true);
  });

  it('keeps regex metacharacters literal', () => {
    expect(matches('a.c%', 'abcd')).toBe(false);
    expect(matches('a.c%', 'a.cd')).toBe(true);
    expect(matches('(x)[y]*+?%', '(x)[y]*+?z')).toBe(true);
    expect(escapeRegex('^$\\')).toBe('\\^\\$\\\\');
  });

  it('agrees with LIKE on every pattern and value over a small alphabet', () => {
    const patterns = wordsUpTo(6, ['a', '1', '%']).filter((pattern) => pattern.includes('%'));
    const values = wordsUpTo(7, ['a', '1']);
    for (const pattern of patterns) {
      const test = matcher(pattern);
      const disagreement = values.find((value) => test(value) !== likeReference(pattern, value));
      if (disagreement !== undefined) throw new Error(`"${pattern}" disagrees with LIKE on "${disagreement}"`);
    }
    expect(patterns.length * values.length).toBeGreaterThan(100_000);
  });

  it('matches in time linear in the value, whatever the pattern', () => {
    const value = 'a'.repeat(20_000);
    const hostile = ['%%%%%%%%%%z', `%${'a%'.repeat(40)}z`, `a${'%a'.repeat(40)}%b`, `%${'%'.repeat(200)}ab%ba`];
    const started = Date.now();
    for (const pattern of hostile) expect(matches(pattern, value)).toBe(false);
    // A backtracking match of these would not end for ages; a linear one ends at once, however loaded the machine.
    expectWithinDeadline(Date.now() - started, 0);
  });

  it('can ignore letter case', () => {
    expect(matches('test%', 'TESTING', true)).toBe(true);
    expect(matches('te.t', 'TEXT', true)).toBe(false);
  });
});

/** Every word of length 0..max over the alphabet. */
function wordsUpTo(max: number, alphabet: string[]): string[] {
  const words = [''];
  for (let start = 0; words[start].length < max; start++) {
    for (const letter of alphabet) words.push(words[start] + letter);
  }
  return words;
}

/** SQL LIKE with `%` only, by dynamic programming over pattern and value prefixes. */
function likeReference(pattern: string, value: string): boolean {
  let row = [true, ...Array.from(value, () => false)];
  for (const symbol of pattern) {
    const next = [symbol === '%' && row[0]];
    for (let i = 1; i <= value.length; i++) {
      next[i] = symbol === '%' ? row[i] || next[i - 1] : row[i - 1] && value[i - 1] === symbol;
    }
    row = next;
  }
  return row[value.length];
}

describe('allOf', () => {
  it('matches everything for no condition, keeps a single one and joins several with $and', () => {
    expect(allOf([])).toEqual({});
    expect(allOf([{ a: { $eq: 1 } }])).toEqual({ a: { $eq: 1 } });
    expect(allOf([{ a: { $eq: 1 } }, { b: { $eq: 2 } }])).toEqual({ $and: [{ a: { $eq: 1 } }, { b: { $eq: 2 } }] });
  });
});
