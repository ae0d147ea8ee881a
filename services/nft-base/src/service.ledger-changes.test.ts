import type { LedgerEvent, Transaction } from '@ledger-api/ledger';
import type { TestArea, TestResponse } from '@ledger-api/runtime/testing';
import { galleryLedger, startNftBase, type Gallery } from './testing/gallery';

/**
 * Every rule of the projection, checked through the API: the block changes the
 * answers, reverting it brings back exactly the answers of a ledger that never
 * had it, and a redelivered block changes nothing. Fresh areas are compared,
 * so no answer comes out of a page cache filled at the same ledger position.
 */
interface Scenario {
  /** Blocks applied before the one under test. */
  setup?: (gallery: Gallery) => Transaction[][];
  change: (gallery: Gallery, setup: Transaction[][]) => Transaction[];
}

const SCENARIOS: Record<string, Scenario> = {
  'a token created for its sender': { change: ({ ledger, alice, cards }) => [ledger.token(alice, cards.id, { name: 'Fresh' })] },
  'a token created for an address': { change: ({ ledger, alice, carol, cards }) => [ledger.token(alice, cards.id, { name: 'Gift' }, carol.address)] },
  'a collection registered': {
    change: ({ ledger, carol }) => [
      ledger.collection(carol, { name: 'Coins', description: 'Old coins', maximumSupply: 3, jsonSchema: { properties: {} } }),
    ],
  },
  'a transfer': {
    change: ({ ledger, alice, bob, dave, dragon, knight }) => [
      ledger.transfer(alice, [dragon.id], dave.address),
      ledger.transfer(bob, [knight.id], alice.address),
    ],
  },
  'a burn': { change: ({ ledger, bob, knight }) => [ledger.burn(bob, knight.id)] },
  'an accepted trade': {
    setup: ({ ledger, alice, carol, dragon }) => {
      const auction = ledger.auction(alice, { nftIds: [dragon.id], startAmount: '100', expiration: { blockHeight: 50 } });
      return [[auction], [ledger.bid(carol, auction.id, '150')]];
    },
    change: ({ ledger, alice }, [[auction], [bid]]) => [ledger.acceptTrade(alice, auction.id, bid.id)],
  },
};

/** Every route whose answer a base rule can change, for the ids and wallets involved. */
function observedPaths(gallery: Gallery, newIds: string[]): string[] {
  const { alice, bob, carol, dave, cards, stamps, dragon, knight, ghost, stamp } = gallery;
  const collectionIds = [cards.id, stamps.id, ...newIds];
  const assetIds = [dragon.id, knight.id, ghost.id, stamp.id, ...newIds];
  return [
    '/nft/collections',
    '/nft/assets',
    '/nft/burns',
    '/nft/transfers',
    ...collectionIds.flatMap((id) => [`/nft/collections/${id}`, `/nft/collections/${id}/wallets`, `/nft/collections/${id}/assets`]),
    ...assetIds.flatMap((id) => [`/nft/assets/${id}`, `/nft/assets/${id}/wallets`, `/nft/burns/${id}`, `/nft/transfers/${id}`]),
    ...[alice, bob, carol, dave].flatMap(({ publicKey }) => [`/nft/assets/wallet/${publicKey}`, `/nft/assets/wallet/${publicKey}?inAuction=true`]),
  ];
}

async function answers(events: LedgerEvent[], paths: string[], area?: TestArea): Promise<Record<string, Omit<TestResponse, 'headers'>>> {
  const answering = area ?? (await startNftBase(events));
  try {
    const entries = [];
    for (const path of paths) {
      const { status, body } = await answering.request('GET', path);
      entries.push([path, { status, body }]);
    }
    return Object.fromEntries(entries);
  } finally {
    if (!area) await answering.close();
  }
}

describe.each(Object.entries(SCENARIOS))('%s', (_name, scenario) => {
  let gallery: Gallery;
  let before: LedgerEvent[];
  let changeEvent: LedgerEvent;
  let paths: string[];

  beforeEach(() => {
    gallery = galleryLedger();
    const setup = scenario.setup?.(gallery) ?? [];
    for (const txs of setup) gallery.ledger.block(...txs);
    before = [...gallery.ledger.events];
    const change = scenario.change(gallery, setup);
    changeEvent = gallery.ledger.block(...change);
    paths = observedPaths(
      gallery,
      change.map((tx) => tx.id),
    );
  });

  it('changes the answers, and a revert brings back exactly the answers without the block', async () => {
    const withoutBlock = await answers(before, paths);
    const area = await startNftBase([...before, changeEvent]);
    try {
      const withBlock = await answers([], paths, area);
      expect(withBlock).not.toEqual(withoutBlock);
      await area.apply([gallery.ledger.revert()]);
      expect(await answers([], paths, area)).toEqual(withoutBlock);
    } finally {
      await area.close();
    }
  });

  it('ignores the block when it is delivered again', async () => {
    const once = await answers([...before, changeEvent], paths);
    expect(await answers([...before, changeEvent, changeEvent], paths)).toEqual(once);
    const token = gallery.ledger.token(gallery.bob, gallery.stamps.id, { country: 'BE' });
    const later = gallery.ledger.block(token);
    const laterPaths = [...paths, `/nft/assets/${token.id}`];
    expect(await answers([...before, changeEvent, later, changeEvent, later], laterPaths)).toEqual(
      await answers([...before, changeEvent, later], laterPaths),
    );
  });
});
