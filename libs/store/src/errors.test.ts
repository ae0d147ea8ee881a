import { StoreUnavailableError } from './errors';

describe('StoreUnavailableError', () => {
  it('says its own status (503) and keeps the driver error off its message', () => {
    const error = new StoreUnavailableError({ cause: new Error('connect ECONNREFUSED 10.0.0.9:27017') });
    expect(error.status).toBe(503);
    expect(error.message).toBe('The data store is unavailable');
    expect(error.name).toBe('StoreUnavailableError');
  });
});
