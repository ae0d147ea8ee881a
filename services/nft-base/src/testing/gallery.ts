import type { LedgerEvent } from '@ledger-api/ledger';
import { NftLedgerBuilder } from '@ledger-api/nft-read-model/testing';
import { startTestArea, type TestArea } from '@ledger-api/runtime/testing';
import { nftBaseArea } from '../service';

/**
 * The ledger most service tests start from. Block 1: Alice registers "Cards",
 * Bob "Stamps". Block 2: Alice mints a dragon to herself, a knight to Bob and a
 * ghost to Dave, who never signs anything. Block 3: Bob mints a stamp.
 */
export function galleryLedger() {
  const ledger = new NftLedgerBuilder();
  const alice = ledger.wallet('alice');
  const bob = ledger.wallet('bob');
  const carol = ledger.wallet('carol');
  const dave = ledger.wallet('dave');
  const cards = ledger.collection(alice, {
    name: 'Cards',
    description: 'Trading cards',
    maximumSupply: 100,
    jsonSchema: { properties: { name: { type: 'string' }, power: { type: 'number' }, tags: { type: 'array' } } },
    allowedIssuers: [alice.publicKey],
    metadata: {
      series: 'first',
      tiers: [
        { level: 1, label: 'common' },
        { level: 2, label: 'rare' },
      ],
    },
  });
  const stamps = ledger.collection(bob, {
    name: 'Stamps (1840)',
    description: 'Postage stamps',
    maximumSupply: 5,
    jsonSchema: { type: 'object', id: 'shadowed', timestamp: 'shadowed', properties: { country: { type: 'string' } }, required: ['country'] },
  });
  ledger.block(cards, stamps);
  const dragon = ledger.token(alice, cards.id, { name: 'Dragon', power: 9, tags: ['fire', 'rare'], stats: { hp: 100, moves: ['claw', 'bite'] } });
  const knight = ledger.token(alice, cards.id, { name: 'Knight', power: 5, tags: ['steel'], stats: { hp: 80, moves: ['slash'] } }, bob.address);
  const ghost = ledger.token(alice, cards.id, { name: 'Ghost%', power: 1, rarity: null }, dave.address);
  ledger.block(dragon, knight, ghost);
  const stamp = ledger.token(bob, stamps.id, { country: 'NL' });
  ledger.block(stamp);
  return { ledger, alice, bob, carol, dave, cards, stamps, dragon, knight, ghost, stamp };
}

export type Gallery = ReturnType<typeof galleryLedger>;

export const startNftBase = (events: LedgerEvent[]): Promise<TestArea> => startTestArea(nftBaseArea, events);

/** Ids of the items of a paged answer, in order. */
export const ids = (body: { data: Array<{ id: string }> }) => body.data.map((item) => item.id);

/**
 * The gallery in a running nft-base, and a search client for `path`: `search`
 * answers as sent, `found` expects 200 and gives the ids of the matches in order.
 */
export function gallerySearch(path: string) {
  const gallery = galleryLedger();
  let area: TestArea | undefined;
  const search = (body: unknown, query = '') => area!.request('POST', `${path}${query}`, body);
  const found = async (body: unknown) => {
    const response = await search(body);
    expect(response.status).toBe(200);
    return ids(response.body);
  };
  return {
    gallery,
    search,
    found,
    start: async () => void (area = await startNftBase(gallery.ledger.events)),
    close: () => area!.close(),
  };
}
