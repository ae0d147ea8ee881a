import { createNftProjection } from '@ledger-api/nft-read-model';
import { listedArea, packageOf, type AreaDefinition } from '@ledger-api/runtime';
import { canceledAuctionRoutes } from './auction-cancels/routes';
import { auctionRoutes } from './auctions/routes';
import { canceledBidRoutes } from './bid-cancels/routes';
import { bidRoutes } from './bids/routes';
import { configurationRoutes } from './configurations/routes';
import { tradeRoutes } from './trades/routes';

const packageJson = packageOf(__dirname);

const AREA = 'nft-exchange';

export const nftExchangeArea: AreaDefinition = {
  ...listedArea(AREA),
  packageName: packageJson.name,
  version: packageJson.version,
  eventsTag: 'Exchange live events',
  info: {
    title: 'NFT Exchange API',
    version: packageJson.version,
    description:
      'Auctions, bids, their cancellations and completed trades of the NFT exchange transaction types (typeGroup 9001), with the NFT base holdings of the wallets involved.',
  },
  projection: ({ networkVersion }) => createNftProjection({ area: AREA, networkVersion, lists: 'exchange' }),
  // The canceled lists come first: the by-id routes would otherwise read `canceled` as an id.
  routes: ({ store, package: pkg }) => [
    ...canceledAuctionRoutes(store),
    ...auctionRoutes(store),
    ...canceledBidRoutes(store),
    ...bidRoutes(store),
    ...tradeRoutes(store),
    ...configurationRoutes(pkg),
  ],
};
