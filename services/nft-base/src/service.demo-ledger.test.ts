import { generateDemoLedger } from '@ledger-api/demo-ledger';
import type { TestArea } from '@ledger-api/runtime/testing';
import { startNftBase } from './testing/gallery';

interface ListedAsset {
  id: string;
  ownerPublicKey?: string;
}

/**
 * The demo ledger has every NFT transaction type and a few reorganisations
 * (reverted blocks): after replaying it, the supplies the wallets report must
 * agree with the assets the lists show.
 */
describe('the demo ledger', () => {
  let area: TestArea;

  beforeAll(async () => {
    area = await startNftBase(generateDemoLedger({ blockCount: 400 }));
  });
  afterAll(() => area.close());

  async function allAssets(path: string): Promise<ListedAsset[]> {
    const assets: ListedAsset[] = [];
    for (let page = 1; ; page++) {
      const { body } = await area.request('GET', `${path}?page=${page}`);
      assets.push(...body.data);
      if (!body.meta.next) return assets;
    }
  }

  it('reports live supply and maximum supply net of burns that match the listed assets', async () => {
    const { body } = await area.request('GET', '/nft/collections');
    expect(body.data.length).toBeGreaterThan(0);
    for (const collection of body.data) {
      const assets = await allAssets(`/nft/collections/${collection.id}/assets`);
      const burned = assets.filter((asset) => asset.ownerPublicKey === 'BURNED').length;
      const wallet = (await area.request('GET', `/nft/collections/${collection.id}/wallets`)).body.data;
      expect(wallet.nft.collections[collection.id]).toMatchObject({
        currentSupply: assets.length - burned,
        nftCollectionAsset: { maximumSupply: collection.maximumSupply - burned },
      });
    }
  });

  it('lists one burn per burned asset and every asset in the search for all', async () => {
    const assets = await allAssets('/nft/assets');
    const burns = (await area.request('GET', '/nft/burns?limit=1')).body.meta.totalCount;
    expect(burns).toBe(assets.filter((asset) => asset.ownerPublicKey === 'BURNED').length);
    expect((await area.request('POST', '/nft/assets/search?limit=1', {})).body.meta.totalCount).toBe(assets.length);
  });
});
