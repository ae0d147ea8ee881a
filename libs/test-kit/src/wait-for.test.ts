import { waitFor } from './wait-for';

describe('waitFor', () => {
  it('resolves once a sync or async condition holds', async () => {
    let polls = 0;
    await waitFor(() => ++polls >= 3, 'three polls', 1_000, 1);
    expect(polls).toBe(3);
    await waitFor(async () => true);
  });

  it('counts a failing probe as not yet', async () => {
    let polls = 0;
    await waitFor(
      async () => {
        polls += 1;
        if (polls < 3) throw new Error('connect ECONNREFUSED');
        return true;
      },
      'a server to start',
      1_000,
      1,
    );
    expect(polls).toBe(3);
  });

  it('fails naming what it waited for, with the last failure', async () => {
    await expect(waitFor(() => false, 'nothing', 30, 5)).rejects.toThrow('timed out after 30 ms waiting for nothing');
    const failing = () => Promise.reject(new Error('connect ECONNREFUSED'));
    await expect(waitFor(failing, 'a server', 30, 5)).rejects.toThrow('waiting for a server (last failure: connect ECONNREFUSED)');
  });
});
