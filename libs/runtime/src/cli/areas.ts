/** The platform's areas, as `npm start` runs them and `npm run ledger:status` reports on them. */
export const AREAS = [
  {
    name: 'guardian',
    entry: 'services/guardian/dist/main.js',
    defaultPort: 4101,
    defaultAdminPort: 9101,
    portVariable: 'GUARDIAN_PORT',
    adminPortVariable: 'GUARDIAN_ADMIN_PORT',
    urlVariable: 'GUARDIAN_URL',
    adminUrlVariable: 'GUARDIAN_ADMIN_URL',
  },
  {
    name: 'nft-base',
    entry: 'services/nft-base/dist/main.js',
    defaultPort: 4102,
    defaultAdminPort: 9102,
    portVariable: 'NFT_BASE_PORT',
    adminPortVariable: 'NFT_BASE_ADMIN_PORT',
    urlVariable: 'NFT_BASE_URL',
    adminUrlVariable: 'NFT_BASE_ADMIN_URL',
  },
  {
    name: 'nft-exchange',
    entry: 'services/nft-exchange/dist/main.js',
    defaultPort: 4103,
    defaultAdminPort: 9103,
    portVariable: 'NFT_EXCHANGE_PORT',
    adminPortVariable: 'NFT_EXCHANGE_ADMIN_PORT',
    urlVariable: 'NFT_EXCHANGE_URL',
    adminUrlVariable: 'NFT_EXCHANGE_ADMIN_URL',
  },
] as const;

export type LocalArea = (typeof AREAS)[number];

/** The port `npm start` runs an area's service on: its port variable, or the area's default. */
export function localPort(area: LocalArea, env: NodeJS.ProcessEnv = process.env): string {
  return env[area.portVariable] ?? String(area.defaultPort);
}

/** The admin port (probes and metrics) `npm start` gives an area's service: its admin port variable, or the area's default. */
export function localAdminPort(area: LocalArea, env: NodeJS.ProcessEnv = process.env): string {
  return env[area.adminPortVariable] ?? String(area.defaultAdminPort);
}
