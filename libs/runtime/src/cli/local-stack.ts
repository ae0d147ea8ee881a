import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { resolve } from 'node:path';
import { writeDemoLedger } from '@ledger-api/ledger';

/**
 * `npm start`: the gateway and the three services on this machine, each service
 * in the `all` role. With neither NATS_URL nor LEDGER_FILE set, a demo ledger is
 * generated first so the API answers with data at once.
 */
const ROOT = resolve(__dirname, '../../../..');

const SERVICES = [
  { entry: 'services/guardian/dist/main.js', port: process.env.GUARDIAN_PORT ?? '4101', urlVariable: 'GUARDIAN_URL' },
  { entry: 'services/nft-base/dist/main.js', port: process.env.NFT_BASE_PORT ?? '4102', urlVariable: 'NFT_BASE_URL' },
  { entry: 'services/nft-exchange/dist/main.js', port: process.env.NFT_EXCHANGE_PORT ?? '4103', urlVariable: 'NFT_EXCHANGE_URL' },
];

async function ledgerEnvironment(): Promise<Record<string, string>> {
  if (process.env.NATS_URL) return {};
  if (process.env.LEDGER_FILE) return { LEDGER_FILE: resolve(process.env.LEDGER_FILE) };
  const file = resolve(ROOT, '.data/demo-ledger.jsonl');
  mkdirSync(resolve(ROOT, '.data'), { recursive: true });
  writeDemoLedger(file, { networkVersion: Number(process.env.NETWORK_VERSION ?? 23) });
  process.stdout.write(`demo ledger written to ${file}\n`);
  return { LEDGER_FILE: file };
}

function inheritedEnvironment(): NodeJS.ProcessEnv {
  // Each service picks its own port and database; a shared value would make them collide.
  const { PORT: _port, MONGO_DB: _database, ...rest } = process.env;
  return rest;
}

async function main(): Promise<void> {
  const ledger = await ledgerEnvironment();
  const children: ChildProcess[] = [];
  let stopping = false;
  const stopAll = (code: number) => {
    if (stopping) return;
    stopping = true;
    for (const child of children) child.kill('SIGTERM');
    Promise.all(children.map((child) => new Promise((done) => (child.exitCode !== null ? done(null) : child.once('exit', done))))).then(() => process.exit(code));
  };
  const launch = (entry: string, env: NodeJS.ProcessEnv) => {
    const child = spawn(process.execPath, [resolve(ROOT, entry)], { env, stdio: 'inherit' });
    child.once('exit', (code) => {
      if (!stopping) {
        process.stderr.write(`${entry} exited with code ${code}; stopping the stack\n`);
        stopAll(1);
      }
    });
    children.push(child);
  };
  for (const service of SERVICES) launch(service.entry, { ...inheritedEnvironment(), ...ledger, PORT: service.port });
  const gatewayPort = process.env.PORT ?? '4003';
  const serviceUrls = Object.fromEntries(SERVICES.map((service) => [service.urlVariable, `http://127.0.0.1:${service.port}`]));
  launch('gateway/dist/index.js', { ...inheritedEnvironment(), ...serviceUrls, PORT: gatewayPort });
  process.stdout.write(`gateway on http://127.0.0.1:${gatewayPort}/api (ready when /readyz answers 200)\n`);
  process.once('SIGINT', () => stopAll(0));
  process.once('SIGTERM', () => stopAll(0));
}

main().catch((error: Error) => {
  process.stderr.write(`${error.stack ?? error.message}\n`);
  process.exit(1);
});
