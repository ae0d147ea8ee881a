import type { LedgerEvent } from '@ledger-api/ledger';
import { checkPastReadsAgainstFreshReplays, startTestArea } from '@ledger-api/runtime/testing';
import { nftExchangeArea } from './service';

const LISTS = [
  ...['/nft/exchange/auctions', '/nft/exchange/bids', '/nft/exchange/trades'].map((path) => ({ path, batch: true })),
  ...['/nft/exchange/auctions/canceled', '/nft/exchange/bids/canceled'].map((path) => ({ path, batch: false })),
];

describe('reads at a past height', () => {
  it('answer what a fresh replay of the followed chain up to that height answers at its head', async () => {
    await checkPastReadsAgainstFreshReplays((events: LedgerEvent[]) => startTestArea(nftExchangeArea, events), LISTS);
  }, 300_000);
});
