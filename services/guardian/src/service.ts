import { listedArea, packageOf, type AreaDefinition } from '@ledger-api/runtime';
import { configurationRoutes } from './configurations/routes';
import { groupRoutes } from './groups/routes';
import { guardianProjection } from './projection';
import { userRoutes } from './users/routes';

const packageJson = packageOf(__dirname);

export const guardianArea: AreaDefinition = {
  ...listedArea('guardian'),
  packageName: packageJson.name,
  version: packageJson.version,
  eventsTag: 'Guardian live events',
  info: {
    title: 'Guardian API',
    version: packageJson.version,
    description: 'Permission groups and users of the Guardian transaction types (typeGroup 9002).',
  },
  projection: () => guardianProjection,
  routes: ({ store, package: pkg }) => [...groupRoutes(store), ...userRoutes(store), ...configurationRoutes(pkg)],
};
