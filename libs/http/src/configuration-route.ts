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
  data: z.object({
    package: z.object({ name: z.string(), currentVersion: z.string(), latestVersion: z.string() }),
    crypto: z.object({ defaults: z.record(z.string(), z.unknown()) }),
    transactions: z.object({ defaults: z.record(z.string(), z.unknown()) }),
  }),
});

/** `GET <area>/configurations`: the package versions and the area's contract constants. */
export function configurationRoute(path: string, tag: string, pkg: PackageInfo, constants: AreaConstants) {
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
    summary: 'Package versions and the constants of this area',
    tags: [tag],
    response: configurationResponse,
    handler: async () => body,
  });
}
