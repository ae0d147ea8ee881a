import { finalHistory, generateDemoLedger, revertsOfNewest } from '@ledger-api/demo-ledger';
import type { LedgerEvent } from '@ledger-api/ledger';
import { expectPastReadsMatchFreshReplay, startTestArea } from '@ledger-api/runtime/testing';
import fc from 'fast-check';
import { nftExchangeArea } from './service';

const LISTS = [
  ...['/nft/exchange/auctions', '/nft/exchange/bids', '/nft/exchange/trades'].map((path) => ({ path, batch: true })),
  ...['/nft/exchange/auctions/canceled', '/nft/exchange/bids/canceled'].map((path) => ({ path, batch: false })),
];
const startExchange = (events: LedgerEvent[]) => startTestArea(nftExchangeArea, events);

describe('reads at a past height', () => {
  it('answer what a fresh replay of the followed chain up to that height answers at its head', async () => {
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 1, max: 1000 }), fc.nat(3), fc.nat(), async (seed, reverts, pick) => {
        const ledger = generateDemoLedger({ seed, blockCount: 50 });
        const events = [...ledger, ...revertsOfNewest(ledger, reverts)];
        const chain = finalHistory(events);
        const height = chain.length - (pick % 40);
        const past = await startExchange(events);
        const fresh = await startExchange(chain.slice(0, height).map((block): LedgerEvent => ({ event: 'block.applied', block })));
        try {
          await expectPastReadsMatchFreshReplay(past, fresh, height, LISTS);
        } finally {
          await Promise.all([past.close(), fresh.close()]);
        }
      }),
      { numRuns: 8 },
    );
  }, 300_000);
});
