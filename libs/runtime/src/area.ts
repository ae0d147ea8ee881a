import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { areaNamed, type AreaName } from '@ledger-api/config';
import type { AnyRoute, OpenApiInfo, PackageInfo } from '@ledger-api/http';
import type { Projection } from '@ledger-api/ledger';
import type { Store } from '@ledger-api/store';

/** What an area's routes are built from. */
export interface AreaDeps {
  store: Store;
  /** Network version byte for address derivation (NETWORK_VERSION). */
  networkVersion: number;
  package: PackageInfo;
}

/** One service's area: its read model and its routes. The runtime does the rest. */
export interface AreaDefinition {
  /** Short name: cache namespace, durable consumer name, default database name. */
  area: string;
  /** Package name and version, reported by the configuration route. */
  packageName: string;
  version: string;
  /** Where the area's paths start at the service, e.g. `/nft`: its live stream is `<basePath>/events`. */
  basePath: string;
  /** The OpenAPI tag of the area's live stream, e.g. `NFT live events`. */
  eventsTag: string;
  /** Default HTTP port of the service's API. */
  defaultPort: number;
  /** Default port of its probes and metrics (ADMIN_PORT). */
  defaultAdminPort: number;
  info: OpenApiInfo;
  projection(options: { networkVersion: number }): Projection;
  routes(deps: AreaDeps): AnyRoute[];
}

/** What the platform's list of areas says of the area: its name, where its paths start and its default ports. */
export function listedArea(name: AreaName): Pick<AreaDefinition, 'area' | 'basePath' | 'defaultPort' | 'defaultAdminPort'> {
  const { basePath, defaultPort, defaultAdminPort } = areaNamed(name);
  return { area: name, basePath, defaultPort, defaultAdminPort };
}

/**
 * The name and version of the package whose code runs from `codeDir`: read at
 * run time from its package.json, which sits one level above both src/ and dist/.
 */
export function packageOf(codeDir: string): { name: string; version: string } {
  const { name, version } = JSON.parse(readFileSync(join(codeDir, '..', 'package.json'), 'utf8')) as { name: string; version: string };
  return { name, version };
}
