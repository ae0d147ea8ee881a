/**
 * The platform's areas, the one list of them: each service's name, where its paths
 * start (the gateway mounts it at `/api` + basePath), its program, its default ports
 * and the variables that move them, and the variables that tell the gateway where it is.
 */
export const AREAS = [
  {
    name: 'guardian',
    basePath: '/guardian',
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
    basePath: '/nft',
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
    basePath: '/nft/exchange',
    entry: 'services/nft-exchange/dist/main.js',
    defaultPort: 4103,
    defaultAdminPort: 9103,
    portVariable: 'NFT_EXCHANGE_PORT',
    adminPortVariable: 'NFT_EXCHANGE_ADMIN_PORT',
    urlVariable: 'NFT_EXCHANGE_URL',
    adminUrlVariable: 'NFT_EXCHANGE_ADMIN_URL',
  },
] as const;

export type Area = (typeof AREAS)[number];
export type AreaName = Area['name'];

/** The area of that name in the list. */
export function areaNamed<N extends AreaName>(name: N): Extract<Area, { name: N }> {
  return AREAS.find((area): area is Extract<Area, { name: N }> => area.name === name)!;
}
