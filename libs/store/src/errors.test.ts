import { QueryTimeoutError, StoreUnavailableError } from './errors';

describe('StoreUnavailableError', () => {
  it('says its own status (503) and keeps the driver error off its message', () => {
    const error = new StoreUnavailableError({ cause: new Error('connect ECONNREFUSED 10.0.0.9:27017') });
    expect(error.status).toBe(503);
    expect(error.message).toBe('The data store is unavailable');
    expect(error.name).toBe('StoreUnavailableError');
  });
});

describe('QueryTimeoutError', () => {
  it('is a 503 whose message is written for the client, with nothing of the driver in it', () => {
    const error = new QueryTimeoutError({ cause: new Error('operation exceeded time limit') });
    expect(error).toMatchObject({ status: 503, expose: true, name: 'QueryTimeoutError' });
    expect(error.message).toBe('The query took too long; narrow it or try again');
  });
});
