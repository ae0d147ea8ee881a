import { join } from 'node:path';
import type { AreaName } from '@ledger-api/config';
import { writeDemoLedger } from '@ledger-api/demo-ledger';
import { areaPortVariables, areaUrlVariables, freeAreaAddresses } from './areas';
import { tempDir } from './ledger-files';
import { freeAddress, isReady, startProcess, type RunningProcess } from './processes';
import { waitFor } from '@ledger-api/test-kit';

export type StackChild = AreaName | 'gateway';

export interface LocalStack {
  /** The gateway's base URL, without `/api`. */
  gateway: string;
  /** The gateway's admin port: its readiness and metrics. */
  gatewayAdmin: string;
  /** Each service's base and admin URL, as the gateway reaches them: a gateway's environment. */
  services: Record<string, string>;
  launcher: RunningProcess;
  /** The pid of the launcher's latest `name` child, from the launcher's log. */
  childPid(name: StackChild): number;
  /** Stops the launcher and, past the deadline, everything it started. */
  stop(): Promise<number | null>;
}

export interface LocalStackOptions {
  /** Blocks of the demo ledger (the demo's own count when absent); small ledgers start in a few seconds. */
  blocks?: number;
  env?: Record<string, string>;
  /** Where the stack's output goes; kept in memory when absent. */
  outputFile?: string;
  /** The folder the ledger is written to; a new temporary one when absent. */
  directory?: string;
}

const READY_DEADLINE_MS = 120_000;

/** The pid of the latest `name` child the launcher says it started, in its output. */
export function launchedPid(launcherOutput: string, name: StackChild): number {
  const starts = [...launcherOutput.matchAll(new RegExp(`local-stack: ${name} started \\(pid (\\d+)\\)`, 'g'))];
  if (starts.length === 0) throw new Error(`the launcher has not started ${name}`);
  return Number(starts[starts.length - 1][1]);
}
const STOP_DEADLINE_MS = 25_000;

/** `npm start` on a demo ledger, on free ports, in a process group of its own. */
export async function startLocalStack({ blocks, env = {}, outputFile, directory }: LocalStackOptions): Promise<LocalStack> {
  const ledgerFile = join(directory ?? tempDir('stack'), 'ledger.jsonl');
  writeDemoLedger(ledgerFile, blocks === undefined ? {} : { blockCount: blocks });
  const [gateway, areas] = await Promise.all([freeAddress(), freeAreaAddresses()]);
  const launcher = startProcess(
    'tools/local-stack/dist/launcher.js',
    { LEDGER_FILE: ledgerFile, ...gateway.env, ...areaPortVariables(areas), ...env },
    { processGroup: true, outputFile },
  );
  const stack: LocalStack = {
    gateway: gateway.url,
    gatewayAdmin: gateway.adminUrl,
    services: areaUrlVariables(areas),
    launcher,
    childPid: (name) => launchedPid(launcher.output(), name),
    stop: () => launcher.stop('SIGTERM', STOP_DEADLINE_MS),
  };
  try {
    await waitFor(() => isReady(stack.gatewayAdmin), 'the stack to be ready', READY_DEADLINE_MS, 200);
  } catch (error) {
    await stack.stop();
    throw new Error(`${(error as Error).message}; launcher output:\n${launcher.output().slice(-4000)}`, { cause: error });
  }
  return stack;
}
