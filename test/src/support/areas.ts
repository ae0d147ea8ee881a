import { AREAS, type AreaName } from '@ledger-api/config';
import { freeAddress, type ProcessAddress } from './processes';

export type AreaAddresses = Record<AreaName, ProcessAddress>;

/** A free address (port and admin port) for the service of each listed area. */
export async function freeAreaAddresses(): Promise<AreaAddresses> {
  const addresses = await Promise.all(AREAS.map(() => freeAddress()));
  return Object.fromEntries(AREAS.map((area, index) => [area.name, addresses[index]])) as AreaAddresses;
}

/** The launcher's environment that runs each area's service at its address. */
export function areaPortVariables(addresses: AreaAddresses): Record<string, string> {
  return Object.fromEntries(
    AREAS.flatMap((area) => [
      [area.portVariable, addresses[area.name].env.PORT],
      [area.adminPortVariable, addresses[area.name].env.ADMIN_PORT],
    ]),
  );
}

/** A gateway's environment that reaches each area's service at its address. */
export function areaUrlVariables(addresses: AreaAddresses): Record<string, string> {
  return Object.fromEntries(
    AREAS.flatMap((area) => [
      [area.urlVariable, addresses[area.name].url],
      [area.adminUrlVariable, addresses[area.name].adminUrl],
    ]),
  );
}
