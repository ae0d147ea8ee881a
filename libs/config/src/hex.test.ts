import { hexText } from './hex';

describe('hexText', () => {
  const id = hexText(4);

  it('takes hex of the length in any letter case, lower-cased', () => {
    expect(id.parse('aB09')).toBe('ab09');
  });

  // A request's 422 names the first problem.
  it('names the characters first, then the length', () => {
    expect(id.safeParse('xyz').error?.issues[0].message).toBe('must only contain hexadecimal characters');
    expect(id.safeParse('abc').error?.issues.map((issue) => issue.code)).toEqual(['too_small']);
    expect(id.safeParse('abcde').error?.issues.map((issue) => issue.code)).toEqual(['too_big']);
  });
});
