/** The platform's areas, as `npm start` runs them and `npm run ledger:status` reports on them. */
export const AREAS = [
  { name: 'guardian', entry: 'services/guardian/dist/main.js', defaultPort: 4101, portVariable: 'GUARDIAN_PORT', urlVariable: 'GUARDIAN_URL' },
  { name: 'nft-base', entry: 'services/nft-base/dist/main.js', defaultPort: 4102, portVariable: 'NFT_BASE_PORT', urlVariable: 'NFT_BASE_URL' },
  {
    name: 'nft-exchange',
    entry: 'services/nft-exchange/dist/main.js',
    defaultPort: 4103,
    portVariable: 'NFT_EXCHANGE_PORT',
    urlVariable: 'NFT_EXCHANGE_URL',
  },
] as const;

export type LocalArea = (typeof AREAS)[number];

/** The port `npm start` runs an area's service on: its port variable, or the area's default. */
export function localPort(area: LocalArea, env: NodeJS.ProcessEnv = process.env): string {
  return env[area.portVariable] ?? String(area.defaultPort);
}
