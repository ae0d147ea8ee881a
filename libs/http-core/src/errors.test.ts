import { ApiError, errorStatus } from './errors';

describe('errorStatus', () => {
  it('reads the status an error carries', () => {
    expect(errorStatus(new ApiError(422, 'bad'))).toBe(422);
    expect(errorStatus(Object.assign(new Error('outage'), { status: 503 }))).toBe(503);
  });

  it('ignores a missing or invalid status, whatever the error is called', () => {
    class StoreUnavailableError extends Error {
      override name = 'StoreUnavailableError';
    }
    for (const error of [
      new StoreUnavailableError(),
      new Error('x'),
      Object.assign(new Error('x'), { status: 200 }),
      { status: 503.5 },
      { status: '503' },
      null,
      undefined,
    ]) {
      expect(errorStatus(error)).toBeUndefined();
    }
  });
});
