import { createNftProjection } from '@ledger-api/nft-read-model';
import { listedArea, packageOf, type AreaDefinition } from '@ledger-api/runtime';
import { assetRoutes } from './assets/routes';
import { burnRoutes } from './burns/routes';
import { collectionRoutes } from './collections/routes';
import { configurationRoutes } from './configurations/routes';
import { transferRoutes } from './transfers/routes';

const packageJson = packageOf(__dirname);

export const nftBaseArea: AreaDefinition = {
  ...listedArea('nft-base'),
  packageName: packageJson.name,
  version: packageJson.version,
  eventsTag: 'NFT live events',
  info: {
    title: 'NFT base API',
    version: packageJson.version,
    description: 'NFT collections, assets, transfers and burns (typeGroup 9000), with ownership moved by accepted exchange trades (typeGroup 9001).',
  },
  projection: ({ networkVersion }) => createNftProjection({ area: 'nft-base', networkVersion, lists: 'base' }),
  routes: (deps) => [
    ...collectionRoutes(deps.store),
    ...assetRoutes(deps),
    ...transferRoutes(deps.store),
    ...burnRoutes(deps.store),
    ...configurationRoutes(deps.package),
  ],
};
