import { AREAS, loadConfig, type Area } from '@ledger-api/config';
import { LedgerNatsStatus, natsCredentials } from '@ledger-api/ledger';
import { createStore, type Store } from '@ledger-api/store';
import { serviceConfigSchema, type ServiceConfig } from '../config';
import { projectorLeaseKey } from '../ledger-input';
import { formatStatusTable, hasTrouble, readAreaStatus, type AreaStatus, type NatsStatusSource } from '../ledger-status';
import { localAdminPort } from './areas';

/**
 * `npm run ledger:status [-- --json] [-- --area <name>]`: where each area's read
 * model stands. It reads what the services read, configured by the same
 * environment: over MongoDB (MONGO_URL) the area's database (MONGO_DB, default
 * ledger_<area>) for the stored position and projector state; with the embedded
 * store, which lives inside the service, the service's /readyz on 127.0.0.1 at
 * the admin port `npm start` gives it; and with NATS_URL the area's consumers
 * (LEDGER_STREAM) and projector lease. Exits 1 when an area's projector has
 * faulted or a part could not be read.
 */
const USAGE = `usage: ledger:status [--json] [--area ${AREAS.map((area) => area.name).join('|')}]...`;

function parseArguments(args: string[]): { json: boolean; areas: Area[] } {
  let json = false;
  const names: string[] = [];
  for (let index = 0; index < args.length; index += 1) {
    if (args[index] === '--json') json = true;
    else if (args[index] === '--area' && index + 1 < args.length) names.push(args[++index]);
    else throw new Error(USAGE);
  }
  const areaNamed = (name: string) => {
    const area = AREAS.find((candidate) => candidate.name === name);
    if (!area) throw new Error(`unknown area ${name}; ${USAGE}`);
    return area;
  };
  return { json, areas: names.length > 0 ? names.map(areaNamed) : [...AREAS] };
}

function configOf(area: Area, areaCount: number): ServiceConfig {
  if (process.env.MONGO_DB && areaCount > 1) throw new Error('MONGO_DB names the database of one area: pass --area <name>');
  return loadConfig(serviceConfigSchema({ area: area.name, port: area.defaultPort, adminPort: area.defaultAdminPort, storeGiven: true }));
}

async function readiness(url: string): Promise<Record<string, unknown>> {
  try {
    const response = await fetch(`${url}/readyz`, { signal: AbortSignal.timeout(3_000) });
    return (await response.json()) as Record<string, unknown>;
  } catch (error) {
    // fetch says only "fetch failed"; the cause says why (ECONNREFUSED: the service is not running).
    const cause = (error as Error).cause as Error | undefined;
    throw new Error(`${url}/readyz: ${cause?.message ?? (error as Error).message}`, { cause: error });
  }
}

/** The area's MongoDB database, or why it cannot be opened. */
async function openStore(mongoUrl: string, dbName: string): Promise<{ store?: Store; problem?: string }> {
  try {
    return { store: await createStore({ mongoUrl, dbName }) };
  } catch (error) {
    return { problem: `store: ${(error as Error).message}` };
  }
}

async function statusOf(area: Area, config: ServiceConfig, nats: NatsStatusSource | undefined): Promise<AreaStatus> {
  if (!config.MONGO_URL) {
    const url = `http://127.0.0.1:${localAdminPort(area)}`;
    return readAreaStatus({ area: area.name, storeName: `embedded@${url}`, processReadiness: () => readiness(url), nats, leased: false });
  }
  const storeName = `mongodb/${config.MONGO_DB}`;
  const opened = await openStore(config.MONGO_URL, config.MONGO_DB);
  try {
    const status = await readAreaStatus({ area: area.name, storeName, store: opened.store, nats, leased: true });
    if (opened.problem) status.problems.unshift(opened.problem);
    return status;
  } finally {
    await opened.store?.close();
  }
}

/** The area's names in NATS, as ledgerInput gives them. */
function areaNats(nats: LedgerNatsStatus, { LEDGER_STREAM, MONGO_DB }: ServiceConfig): NatsStatusSource {
  return {
    consumers: (area) => nats.consumers(`${area}-`),
    leaseHolder: (area) => nats.leaseHolder(projectorLeaseKey(LEDGER_STREAM, area, MONGO_DB)),
  };
}

async function main(): Promise<void> {
  const { json, areas } = parseArguments(process.argv.slice(2));
  const configs = areas.map((area) => configOf(area, areas.length));
  const { NATS_URL, LEDGER_STREAM } = configs[0];
  const nats = NATS_URL ? await LedgerNatsStatus.connect(NATS_URL, LEDGER_STREAM, natsCredentials(configs[0])) : undefined;
  try {
    const statuses: AreaStatus[] = [];
    for (const [index, area] of areas.entries()) statuses.push(await statusOf(area, configs[index], nats && areaNats(nats, configs[index])));
    process.stdout.write(json ? `${JSON.stringify(statuses, null, 2)}\n` : formatStatusTable(statuses));
    process.exitCode = statuses.some(hasTrouble) ? 1 : 0;
  } finally {
    await nats?.close();
  }
}

main().catch((error: Error) => {
  process.stderr.write(`ledger:status failed: ${error.message}\n`);
  process.exit(2);
});
