/**
 * The ports `npm start` gives each area's service, for the launcher that starts them and the
 * `ledger:status` command that asks them (`@ledger-api/runtime/local-ports`, not in the barrel).
 */
import type { Area } from '@ledger-api/config';

/** The port `npm start` runs an area's service on: its port variable, or the area's default. */
export function localPort(area: Area, env: NodeJS.ProcessEnv = process.env): string {
  return env[area.portVariable] ?? String(area.defaultPort);
}

/** The admin port (probes and metrics) `npm start` gives an area's service: its admin port variable, or the area's default. */
export function localAdminPort(area: Area, env: NodeJS.ProcessEnv = process.env): string {
  return env[area.adminPortVariable] ?? String(area.defaultAdminPort);
}
