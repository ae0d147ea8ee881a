import { eventFrames, type StreamOpening } from './client';
import { expectedOpening, openingProblems, queryKeys, streamStateOf } from './event-streams';

const state = streamStateOf({ event: 'position', id: 'model-12', data: '{"height":10,"id":"abc"}' });

const opening = (body: string, firstEvent = eventFrames(body)[0]): StreamOpening => ({
  outcome: { status: 200, headers: { 'content-type': 'text/event-stream; charset=utf-8' }, body, ms: 5 },
  firstEvent,
});

describe('what a live stream owes a hostile Last-Event-ID', () => {
  it('resumes from an id of its read model up to the newest commit, however padded', () => {
    expect(expectedOpening('model-3', state)).toBe('replay');
    expect(expectedOpening(' model-0011\t', state)).toBe('replay');
    expect(expectedOpening('model-12', state)).toBe('quiet');
  });

  it('resets on any other value', () => {
    for (const value of ['model-13', 'other-3', 'model-', 'model-1e3', 'model-3-3', '', 'model-3\u00a0', `model-${'9'.repeat(16)}`])
      expect(expectedOpening(value, state)).toBe('reset');
  });

  it('checks the first event against the expected opening', () => {
    const reset = opening('retry: 2000\n\nevent: reset\nid: model-12\ndata: {"height":10,"id":"abc"}\n\n');
    expect(openingProblems(reset, 'reset', state)).toEqual([]);
    expect(openingProblems(reset, 'replay', state)).toEqual([expect.stringContaining('expected the events after the id')]);
    const replay = opening('retry: 2000\n\nevent: block.applied\nid: model-4\ndata: {"height":4}\n\n');
    expect(openingProblems(replay, 'replay', state)).toEqual([]);
    expect(openingProblems(replay, 'reset', state)).toEqual([expect.stringContaining('expected reset')]);
    expect(openingProblems(opening('retry: 2000\n\n: keep-alive\n\n'), 'quiet', state)).toEqual([]);
    expect(openingProblems(replay, 'quiet', state)).toEqual([expect.stringContaining('resumed at the newest event')]);
    expect(openingProblems(opening('retry: 2000\n\n'), 'reset', state)).toEqual(['no first event within the time allowed']);
  });
});

describe('eventFrames', () => {
  it('reads complete events only, passing over comments and retry frames', () => {
    expect(eventFrames('retry: 2000\n\n: keep-alive\n\nevent: position\nid: m-1\ndata: {}\n\nevent: block.applied\nid: m-2\ndata: {')).toEqual([
      { event: 'position', id: 'm-1', data: '{}' },
    ]);
  });
});

describe('queryKeys', () => {
  it('reads the keys as the gateway does, none for a query without one', () => {
    expect(queryKeys('?b=1&2=x')).toEqual(['2', 'b']);
    expect(queryKeys('?a+b=1&%ZZ&=3')).toEqual(['a b', '%ZZ', '']);
    expect(queryKeys('??page=1')).toEqual(['?page']);
    expect(queryKeys('?&&')).toEqual([]);
    expect(queryKeys('?#page=1')).toEqual([]);
  });
});
