import { z } from 'zod';
import { defineRoute } from './route';

export interface PackageInfo {
  name: string;
  currentVersion: string;
  latestVersion: string;
}

export interface AreaConstants {
  crypto: Record<string, unknown>;
  transactions: Record<string, unknown>;
}

const configurationResponse = z.object({
  data: z
    .object({
      package: z.object({ name: z.string(), currentVersion: z.string(), latestVersion: z.string() }),
      crypto: z.object({ defaults: z.record(z.string(), z.unknown()) }),
      transactions: z.object({ defaults: z.record(z.string(), z.unknown()) }),
    })
    .meta({
      id: 'Configuration',
      description: "The service package's versions and the constants of its area, nested by their dotted names",
      examples: [
        {
          package: { name: '@ledger-api/nft-base', currentVersion: '1.0.0', latestVersion: '1.0.0' },
          crypto: { defaults: { nftBaseTypeGroup: 9000, nftCollectionName: { minLength: 5, maxLength: 40 } } },
          transactions: { defaults: {} },
        },
      ],
    }),
});

/** Where an area serves its configuration: the route's path, OpenAPI operation id and tag. */
export interface ConfigurationRouteSpec {
  path: string;
  operationId: string;
  tag: string;
}

/** `GET <area>/configurations`: the package versions and the area's contract constants. */
export function configurationRoute({ path, operationId, tag }: ConfigurationRouteSpec, pkg: PackageInfo, constants: AreaConstants) {
  const body = {
    data: {
      package: pkg,
      crypto: { defaults: constants.crypto },
      transactions: { defaults: constants.transactions },
    },
  };
  return defineRoute({
    method: 'get',
    path,
    operationId,
    summary: 'Package versions and the constants of this area',
    tags: [tag],
    response: configurationResponse,
    handler: async () => body,
  });
}
