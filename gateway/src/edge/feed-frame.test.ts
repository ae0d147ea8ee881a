import { readFeedFrame } from './feed-frame';

const TIMESTAMP = { epoch: 8, unix: 1490101208, human: '2017-03-21T13:00:08.000Z' };

describe('readFeedFrame', () => {
  it('reads the events of the contract, passing their data on as sent', () => {
    const data = { height: 2, id: 'block-2', timestamp: TIMESTAMP, transactions: [], addedLater: true };
    expect(readFeedFrame({ event: 'block.applied', id: 'model-5', data: JSON.stringify(data) })).toEqual({
      kind: 'event',
      event: { event: 'block.applied', commit: { readModel: 'model', generation: 5 }, data },
    });
    expect(readFeedFrame({ event: 'position', id: 'model-1', data: '{"height":0,"id":""}' })).toMatchObject({ kind: 'event' });
  });

  it('leaves events of other names aside', () => {
    expect(readFeedFrame({ event: 'unavailable', id: undefined, data: 'not even JSON' })).toEqual({ kind: 'other' });
  });

  it.each([
    ['an id that is no commit id', { event: 'position', id: 'no commit', data: '{"height":1,"id":"b"}' }, 'id is no commit id'],
    ['no id at all', { event: 'block.reverted', data: '{"height":1,"id":"b"}' }, 'id is no commit id'],
    ['data that is not JSON', { event: 'block.reverted', id: 'model-2', data: '{"height":' }, 'data is not JSON'],
    ['data of another shape', { event: 'block.applied', id: 'model-2', data: '{"height":"two","id":"b"}' }, 'height is invalid'],
    ['a timestamp missing', { event: 'block.applied', id: 'model-2', data: '{"height":2,"id":"b","transactions":[]}' }, 'timestamp is invalid'],
  ])('finds a frame with %s malformed', (_, received, reason) => {
    expect(readFeedFrame(received)).toEqual({ kind: 'malformed', reason: expect.stringContaining(reason) });
  });
});
