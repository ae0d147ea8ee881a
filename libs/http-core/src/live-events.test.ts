import { dataGenerationOf, formatCommitId, parseCommitId } from './live-events';

describe('commit ids', () => {
  it('name the commit that last changed the data after the generation when it is an earlier one', () => {
    expect(formatCommitId({ readModel: 'model', generation: 7 })).toBe('model-7');
    expect(formatCommitId({ readModel: 'model', generation: 7, changedAt: 7 })).toBe('model-7');
    expect(formatCommitId({ readModel: 'model', generation: 7, changedAt: 5 })).toBe('model-7.5');
  });

  it('read back as written, an id without the data’s commit reading the data of its own', () => {
    for (const text of ['model-7', 'model-7.5', '-0']) expect(formatCommitId(parseCommitId(text)!)).toBe(text);
    expect(dataGenerationOf(parseCommitId('model-7')!)).toBe(7);
    expect(dataGenerationOf(parseCommitId('model-7.5')!)).toBe(5);
  });

  it('are refused when malformed, or naming data a later commit made', () => {
    for (const text of [undefined, '', 'model', 'model-', 'model-7.', 'model-7.5.3', 'mo-del-7', 'model-5.7']) {
      expect([text, parseCommitId(text)]).toEqual([text, undefined]);
    }
  });
});
