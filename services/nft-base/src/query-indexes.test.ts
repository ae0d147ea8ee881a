import { LEDGER_RECORD_LIST } from '@ledger-api/nft-read-model';
import { EmbeddedStore } from '@ledger-api/store';
import { issueListRoutes, poorlyIndexed, RecordingStore, routeQuerySummary, type ListRoute } from '@ledger-api/store/testing';
import { walletAssetsList } from './assets/query-config';
import { assetsRepository } from './assets/repository';
import { burnsRepository } from './burns/repository';
import { collectionsList } from './collections/query-config';
import { collectionsRepository } from './collections/repository';
import { nftBaseArea } from './service';
import { transfersRepository } from './transfers/repository';

const PUBLIC_KEY = `02${'ab'.repeat(32)}`;
const { collections: specs } = nftBaseArea.projection({ networkVersion: 23 });

/** Search bodies reaching every kind of condition a containment search builds. */
const SEARCH_BODIES = [{}, { name: 'Frog' }, { traits: ['winged', { size: 2 }] }, { nested: { deep: null, list: [] } }];

async function issuedReads() {
  const store = new RecordingStore(new EmbeddedStore());
  await store.ensureCollections(specs);
  // The documents lookups need to go on to their next read.
  await store.applyWrites([
    { collection: 'collections', id: 'c1', doc: { _id: 'c1', registrantAddress: 'owner' } },
    { collection: 'assets', id: 'a1', doc: { _id: 'a1', ownerAddress: 'owner', collectionId: 'c1' } },
  ]);
  const assets = assetsRepository(store, { networkVersion: 23 });
  const collections = collectionsRepository(store);
  const burns = burnsRepository(store);
  const transfers = transfersRepository(store);
  const lookups = async () => {
    await Promise.all([
      assets.findById('a1'),
      assets.ownerWallet('a1'),
      collections.findById('c1'),
      collections.registrantWallet('c1'),
      burns.findById('b1'),
      transfers.findById('t1'),
    ]);
  };
  const batchLookups = async () => {
    await Promise.all([
      assets.findByIds(['a1', 'a2']),
      collections.findByIds(['c1', 'c2']),
      burns.findByIds(['b1', 'b2']),
      transfers.findByIds(['t1', 't2']),
    ]);
  };
  const routes: ListRoute[] = [
    { route: 'GET /nft/assets', ...LEDGER_RECORD_LIST, read: (query) => assets.list(query) },
    { route: 'POST /nft/assets/search', ...LEDGER_RECORD_LIST, bodies: SEARCH_BODIES, read: (query, body) => assets.search(body as never, query) },
    { route: 'GET /nft/assets/wallet/:id', ...walletAssetsList, read: (query) => assets.ownedBy(PUBLIC_KEY, query as never, 10) },
    { route: 'GET /nft/collections/:id/assets', ...LEDGER_RECORD_LIST, read: (query) => assets.ofCollection('c1', query) },
    { route: 'GET /nft/collections', ...collectionsList, read: (query) => collections.list(query) },
    {
      route: 'POST /nft/collections/search',
      ...collectionsList,
      bodies: SEARCH_BODIES,
      read: (query, body) => collections.search(body as never, query),
    },
    { route: 'GET /nft/burns', ...LEDGER_RECORD_LIST, read: (query) => burns.list(query) },
    { route: 'GET /nft/transfers', ...LEDGER_RECORD_LIST, read: (query) => transfers.list(query) },
    { route: 'lookups by id and wallet', filters: {}, orderable: {}, read: lookups },
    { route: 'batch lookups', filters: {}, orderable: {}, read: batchLookups },
  ];
  return issueListRoutes(store, routes);
}

describe('the NFT base queries', () => {
  it('have an index for every read every route issues', async () => {
    expect(poorlyIndexed(await issuedReads(), specs)).toEqual([]);
  });

  it('build these filters and sorts', async () => {
    expect(routeQuerySummary(await issuedReads())).toMatchSnapshot();
  });
});
