import { checkPastReadsAgainstFreshReplays } from '@ledger-api/runtime/testing';
import { startNftBase } from './testing/gallery';

const LISTS = ['/nft/assets', '/nft/collections', '/nft/burns', '/nft/transfers'].map((path) => ({ path, batch: true }));

describe('reads at a past height', () => {
  it('answer what a fresh replay of the followed chain up to that height answers at its head', async () => {
    await checkPastReadsAgainstFreshReplays(startNftBase, LISTS);
  }, 300_000);
});
