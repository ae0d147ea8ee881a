import { finalHistory, generateDemoLedger } from '@ledger-api/demo-ledger';
import type { LedgerEvent, Transaction } from '@ledger-api/ledger';
import { NFT_BASE_TYPE_GROUP, NftBaseType } from '@ledger-api/nft-read-model';
import type { TestArea } from '@ledger-api/runtime/testing';
import { startNftBase } from './testing/gallery';

interface ListedAsset {
  id: string;
  ownerPublicKey?: string;
}

const isTransfer = (tx: Transaction) => tx.typeGroup === NFT_BASE_TYPE_GROUP && tx.type === NftBaseType.transfer;

/** Ids of the transfers of the given blocks, in ledger order. */
const transferIdsOf = (blocks: { transactions: Transaction[] }[]) =>
  blocks.flatMap((block) => block.transactions.filter(isTransfer).map((tx) => tx.id));

/**
 * The demo ledger has every NFT transaction type and a few reorganisations
 * (reverted blocks): after replaying it, the supplies the wallets report must
 * agree with the assets the lists show.
 */
describe('the demo ledger', () => {
  const events: LedgerEvent[] = generateDemoLedger({ blockCount: 400 });
  let area: TestArea;

  beforeAll(async () => {
    area = await startNftBase(events);
  });
  afterAll(() => area.close());

  async function allItems<T>(path: string): Promise<T[]> {
    const items: T[] = [];
    for (let page = 1; ; page++) {
      const { body } = await area.request('GET', `${path}?page=${page}`);
      items.push(...body.data);
      if (!body.meta.next) return items;
    }
  }

  it('reports live supply and maximum supply net of burns that match the listed assets', async () => {
    const { body } = await area.request('GET', '/nft/collections');
    expect(body.data.length).toBeGreaterThan(0);
    for (const collection of body.data) {
      const assets = await allItems<ListedAsset>(`/nft/collections/${collection.id}/assets`);
      const burned = assets.filter((asset) => asset.ownerPublicKey === 'BURNED').length;
      const wallet = (await area.request('GET', `/nft/collections/${collection.id}/wallets`)).body.data;
      expect(wallet.nft.collections[collection.id]).toMatchObject({
        currentSupply: assets.length - burned,
        nftCollectionAsset: { maximumSupply: collection.maximumSupply - burned },
      });
    }
  });

  it('lists one burn per burned asset and every asset in the search for all', async () => {
    const assets = await allItems<ListedAsset>('/nft/assets');
    const burns = (await area.request('GET', '/nft/burns?limit=1')).body.meta.totalCount;
    expect(burns).toBe(assets.filter((asset) => asset.ownerPublicKey === 'BURNED').length);
    expect((await area.request('POST', '/nft/assets/search?limit=1', {})).body.meta.totalCount).toBe(assets.length);
  });

  it('lists every transfer of the final history in ledger order, and none of a reverted block', async () => {
    const kept = transferIdsOf(finalHistory(events));
    const applied = transferIdsOf(events.flatMap((event) => (event.event === 'block.applied' ? [event.block] : [])));
    const reverted = applied.filter((id) => !kept.includes(id));
    expect(reverted.length).toBeGreaterThan(0);
    expect((await allItems<{ id: string }>('/nft/transfers')).map((transfer) => transfer.id)).toEqual(kept);
    for (const id of reverted) expect((await area.request('GET', `/nft/transfers/${id}`)).status).toBe(404);
  });
});
