import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { AREAS as LISTED_AREAS, type AreaName } from '@ledger-api/config';
import { generateDemoLedger } from '@ledger-api/demo-ledger';
import { openEventStream } from '@ledger-api/http';
import { waitFor } from '@ledger-api/test-kit';
import { JetStreamLedger, NATS_URL } from '../support/jetstream-ledger';
import { tempDir, topBlock } from '../support/ledger-files';
import { freeAddress, isReady, startProcess, type ProcessAddress, type RunningProcess } from '../support/processes';
import { BlockPublisher } from './block-publisher';

/**
 * The three services in ROLE=all on the embedded store, projecting a demo ledger
 * published to a JetStream stream of their own on the local NATS server, and one
 * gateway process in front of them. Logs go to files in a temporary
 * directory, removed by stop(). Each area's live stream is `eventsPath` at its
 * service and `/api` + `eventsPath` at the gateway.
 */
export const BENCH_AREAS = LISTED_AREAS.map((area) => ({ ...area, eventsPath: `${area.basePath}/events` }));

export interface JetStreamStackOptions {
  /** Blocks of the demo ledger published before the services start. */
  blocks: number;
  /** LOG_LEVEL of every process. */
  logLevel: string;
  /** Added to the gateway's environment (which has RATE_LIMIT_PER_MINUTE=0). */
  gatewayEnv: Record<string, string>;
}

export interface JetStreamStack {
  /** The gateway's base URL, without `/api`. */
  gateway: string;
  /** The gateway's and each service's pid, by name (`gateway`, or the area's name). */
  pids(): Record<string, number>;
  /** Each service's base URL, by area. */
  services: Record<AreaName, string>;
  /** The admin port (readiness and metrics) of the gateway and of each service, by name. */
  admin: Record<'gateway' | AreaName, string>;
  /** The stream the ledger is published to. */
  ledger: { stream: string; subjectPrefix: string };
  publisher: BlockPublisher;
  /** Stops the gateway and starts a fresh one on the same port: nothing it held before is left. */
  restartGateway(): Promise<void>;
  stop(): Promise<void>;
}

const READY_DEADLINE_MS = 120_000;

interface StartedServices {
  processes: Record<AreaName, RunningProcess>;
  addresses: Record<AreaName, ProcessAddress>;
}

/** The three services on the ledger stream, each on a free port, logging to `directory`. */
async function startServices(directory: string, env: Record<string, string>): Promise<StartedServices> {
  const started = { processes: {}, addresses: {} } as StartedServices;
  for (const area of BENCH_AREAS) {
    const address = await freeAddress();
    started.processes[area.name] = startProcess(area.entry, { ...env, ...address.env }, { outputFile: join(directory, `${area.name}.log`) });
    started.addresses[area.name] = address;
  }
  return started;
}

export async function startJetStreamStack(options: JetStreamStackOptions): Promise<JetStreamStack> {
  const directory = tempDir('bench-jetstream');
  const jetStream = new JetStreamLedger('bench');
  const ledger = { stream: jetStream.stream, subjectPrefix: jetStream.subjectPrefix };
  const events = generateDemoLedger({ blockCount: options.blocks });
  await jetStream.publish(events);
  const ledgerEnv = { ...jetStream.env, ROLE: 'all' };
  const common = { HOST: '127.0.0.1', LOG_LEVEL: options.logLevel };
  const services = await startServices(directory, { ...ledgerEnv, ...common });
  const gatewayAddress = await freeAddress();
  const upstreams = Object.fromEntries(
    BENCH_AREAS.flatMap((area) => [
      [area.urlVariable, services.addresses[area.name].url],
      [area.adminUrlVariable, services.addresses[area.name].adminUrl],
    ]),
  );
  const gatewayEnv = { ...upstreams, ...common, ...gatewayAddress.env, RATE_LIMIT_PER_MINUTE: '0', ...options.gatewayEnv };
  const startGateway = () => startProcess('gateway/dist/index.js', gatewayEnv, { outputFile: join(directory, 'gateway.log') });
  let gatewayProcess = startGateway();
  const gateway = gatewayAddress.url;
  const whenServing = () => whenReadyAndStreaming(gateway, gatewayAddress.adminUrl);
  const children = () => [gatewayProcess, ...Object.values(services.processes)];
  let publisher: BlockPublisher | undefined;
  const stop = async () => {
    for (const child of children()) await child.stop();
    await publisher?.close();
    await jetStream.delete();
    rmSync(directory, { recursive: true, force: true });
  };
  try {
    publisher = await BlockPublisher.connect({ servers: NATS_URL, ...ledger, tip: topBlock(events) });
    await whenServing();
  } catch (error) {
    const logs = children()
      .map((child) => child.output().slice(-2000))
      .join('\n');
    await stop();
    throw new Error(`${(error as Error).message}; logs:\n${logs}`, { cause: error });
  }
  const servicePids = Object.fromEntries(BENCH_AREAS.map((area) => [area.name, services.processes[area.name].child.pid!]));
  return {
    gateway,
    pids: () => ({ gateway: gatewayProcess.child.pid!, ...servicePids }),
    services: Object.fromEntries(BENCH_AREAS.map((area) => [area.name, services.addresses[area.name].url])) as Record<AreaName, string>,
    admin: {
      gateway: gatewayAddress.adminUrl,
      ...(Object.fromEntries(BENCH_AREAS.map((area) => [area.name, services.addresses[area.name].adminUrl])) as Record<AreaName, string>),
    },
    ledger,
    publisher,
    async restartGateway() {
      await gatewayProcess.stop();
      gatewayProcess = startGateway();
      await whenServing();
    },
    stop,
  };
}

/** Ready, and every area's live stream opens: the commit feeds are live. */
async function whenReadyAndStreaming(gateway: string, gatewayAdmin: string): Promise<void> {
  await waitFor(() => isReady(gatewayAdmin), 'the gateway and the services to be ready', READY_DEADLINE_MS, 200);
  for (const area of BENCH_AREAS) {
    await waitFor(() => streamOpens(`${gateway}/api${area.eventsPath}`), `the ${area.name} live stream`, READY_DEADLINE_MS, 200);
  }
}

async function streamOpens(url: string): Promise<boolean> {
  const connection = await openEventStream({ url }, { onEvent: () => undefined, onEnd: () => undefined });
  connection.close();
  return connection.status === 200;
}
