import { spawn, spawnSync } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { AREAS } from '@ledger-api/config';
import { createLogger, exitOnUnexpectedErrors } from '@ledger-api/observability';
import { localAdminPort, localPort } from '@ledger-api/runtime/local-ports';
import { Supervisor, type ChildDefinition } from './supervisor';

/**
 * `npm start`: the gateway and the three services on this machine, each service
 * in the `all` role. With neither NATS_URL nor LEDGER_FILE set, a demo ledger is
 * generated first so the API answers with data at once. A child that crashes is
 * started again with backoff; SIGINT or SIGTERM stops them all.
 */
// The tree the launcher runs from (.runnable/ under npm start): its children run from the same one.
const ROOT = resolve(__dirname, '../../..');

const SERVICES = AREAS.map((area) => ({ ...area, port: localPort(area), adminPort: localAdminPort(area) }));

/** The gateway's admin port unless ADMIN_PORT says otherwise; the services' are 9101-9103, so none collide. */
const GATEWAY_ADMIN_PORT = '9003';

// The demo generator is a development tool in a workspace of its own: running its
// command, rather than importing it, keeps the launcher from loading it as a library.
const DEMO_LEDGER_COMMAND = 'tools/demo-ledger/dist/cli/demo.js';

function writeDemoLedger(file: string, networkVersion: string): void {
  const run = spawnSync(process.execPath, [resolve(ROOT, DEMO_LEDGER_COMMAND), file, '--network', networkVersion], { encoding: 'utf8' });
  if (run.status !== 0) throw new Error(`the demo ledger could not be written: ${run.error?.message ?? run.stderr.trim()}`);
}

async function ledgerEnvironment(): Promise<Record<string, string>> {
  if (process.env.NATS_URL) return {};
  if (process.env.LEDGER_FILE) return { LEDGER_FILE: resolve(process.env.LEDGER_FILE) };
  // npm start runs from the repository root: the demo ledger goes to its .data/, beside the built tree.
  const file = resolve('.data/demo-ledger.jsonl');
  mkdirSync(dirname(file), { recursive: true });
  writeDemoLedger(file, process.env.NETWORK_VERSION || '23');
  process.stdout.write(`demo ledger written to ${file}\n`);
  return { LEDGER_FILE: file };
}

function inheritedEnvironment(): NodeJS.ProcessEnv {
  // Each service picks its own ports and database; a shared value would make them collide.
  const { PORT: _port, ADMIN_PORT: _adminPort, MONGO_DB: _database, ...rest } = process.env;
  return rest;
}

/** Long enough for a service's graceful shutdown (SHUTDOWN_TIMEOUT_MS, 10 s by default). */
const STOP_DEADLINE_MS = 15_000;

const log = (line: string) => process.stdout.write(`local-stack: ${line}\n`);

/** Each child runs under the Node.js options the launcher runs under (npm start's --enable-source-maps). */
function childDefinition(name: string, entry: string, env: NodeJS.ProcessEnv): ChildDefinition {
  return { name, start: () => spawn(process.execPath, [...process.execArgv, resolve(ROOT, entry)], { env, stdio: 'inherit' }) };
}

async function main(): Promise<void> {
  const ledger = await ledgerEnvironment();
  const gatewayPort = process.env.PORT ?? '4003';
  const gatewayAdminPort = process.env.ADMIN_PORT ?? GATEWAY_ADMIN_PORT;
  const serviceUrls = Object.fromEntries(
    SERVICES.flatMap((service) => [
      [service.urlVariable, `http://127.0.0.1:${service.port}`],
      [service.adminUrlVariable, `http://127.0.0.1:${service.adminPort}`],
    ]),
  );
  const supervisor = new Supervisor(
    [
      ...SERVICES.map((service) =>
        childDefinition(service.name, service.entry, { ...inheritedEnvironment(), ...ledger, PORT: service.port, ADMIN_PORT: service.adminPort }),
      ),
      childDefinition('gateway', 'gateway/dist/index.js', {
        ...inheritedEnvironment(),
        ...serviceUrls,
        PORT: gatewayPort,
        ADMIN_PORT: gatewayAdminPort,
      }),
    ],
    { log },
  );
  // Its children go down with it: a launcher started again must find their ports free.
  exitOnUnexpectedErrors(createLogger({ name: 'local-stack' }), {
    exit: (code) => void supervisor.stop('SIGTERM', STOP_DEADLINE_MS).then(() => process.exit(code)),
  });
  supervisor.start();
  log(`gateway on http://127.0.0.1:${gatewayPort}/api (ready when http://127.0.0.1:${gatewayAdminPort}/readyz answers 200)`);
  // A crashed child is restarted; only a signal to the launcher stops the stack.
  const stop = (signal: NodeJS.Signals) => {
    log(`${signal} received; stopping the stack`);
    void supervisor.stop('SIGTERM', STOP_DEADLINE_MS).then(() => process.exit(0));
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}

main().catch((error: Error) => {
  process.stderr.write(`${error.stack ?? error.message}\n`);
  process.exit(1);
});
