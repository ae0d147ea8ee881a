import { senderCountProjection } from '@ledger-api/ledger/testing';
import type { AreaDefinition } from '../area';

/**
 * An area over the ledger test kit's sender-count projection, with the routes
 * a test gives it: what the runtime's own tests start services of.
 */
export function senderCountArea(area: string, routes: AreaDefinition['routes'] = () => []): AreaDefinition {
  return {
    area,
    packageName: `@ledger-api/${area}`,
    version: '1.0.0',
    basePath: `/${area}`,
    eventsTag: `${area} live events`,
    defaultPort: 4990,
    defaultAdminPort: 9990,
    info: { title: area, version: '1.0.0' },
    projection: () => senderCountProjection,
    routes,
  };
}
