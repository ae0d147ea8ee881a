import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { closeSync, existsSync, openSync, readFileSync } from 'node:fs';
import { relative, resolve } from 'node:path';

import { freePort } from '@ledger-api/ledger/testing';

export { freePort };

export const ROOT = resolve(__dirname, '../../..');

/**
 * The runnable output npm start runs, laid out as the image's /app and built as the image's is
 * (deploy/build-runnable.mjs; jest's global setup builds it before every run): every process a
 * test starts runs from it, never from tsc's dist/ folders.
 */
export const RUNNABLE = resolve(ROOT, '.runnable');

/** The Node.js options the image runs every process with (its `ENV NODE_OPTIONS`, held to it by a test). */
export const RUNNABLE_NODE_OPTIONS = '--enable-source-maps';

/** The file of the runnable output at `entry`, a path such as `services/guardian/dist/main.js`. */
export function runnableEntry(entry: string): string {
  const file = resolve(RUNNABLE, entry);
  if (!existsSync(file)) throw new Error(`${relative(ROOT, file)} is not in the runnable output: build it with npm run build:runnable`);
  return file;
}

export interface RunningProcess {
  child: ChildProcess;
  output(): string;
  /**
   * Sends `signal` and waits for the exit; what still runs `killAfterMs` later is
   * killed, its process group included when it was started as a group leader.
   */
  stop(signal?: NodeJS.Signals, killAfterMs?: number): Promise<number | null>;
}

export interface StartOptions {
  /** Lead a process group of its own, so `stop` also ends what the process started. */
  processGroup?: boolean;
  /** Where stdout and stderr go instead of memory: a process that logs every request would fill it. */
  outputFile?: string;
}

const STOP_DEADLINE_MS = 30_000;

/** Starts `node <entry>` from the runnable output, as the image runs it, with the given environment added. */
export function startProcess(entry: string, env: Record<string, string>, options: StartOptions = {}): RunningProcess {
  return startCommand(process.execPath, [runnableEntry(entry)], { LOG_LEVEL: 'warn', NODE_OPTIONS: RUNNABLE_NODE_OPTIONS, ...env }, options);
}

/** What a running process runs: the script node was given (argv[1]) and the NODE_OPTIONS of its environment. */
export function runningAs(pid: number): { script: string | undefined; nodeOptions: string | undefined } {
  const script = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0')[1];
  const environment = readFileSync(`/proc/${pid}/environ`, 'utf8').split('\0');
  const nodeOptions = environment.find((variable) => variable.startsWith('NODE_OPTIONS='))?.slice('NODE_OPTIONS='.length);
  return { script, nodeOptions };
}

/** Starts `command` with the given environment added. */
export function startCommand(command: string, args: string[], env: Record<string, string>, options: StartOptions = {}): RunningProcess {
  const { outputFile } = options;
  const outputFd = outputFile === undefined ? undefined : openSync(outputFile, 'a');
  const child = spawn(command, args, {
    env: { ...process.env, ...env },
    stdio: ['ignore', outputFd ?? 'pipe', outputFd ?? 'pipe'],
    detached: options.processGroup === true,
  });
  // The child holds its own copy of the descriptor.
  if (outputFd !== undefined) closeSync(outputFd);
  let output = '';
  child.stdout?.on('data', (chunk) => (output += chunk));
  child.stderr?.on('data', (chunk) => (output += chunk));
  const exited = once(child, 'exit').then(([code]) => code as number | null);
  const running = () => child.exitCode === null && child.signalCode === null;
  const killAll = () => {
    try {
      if (options.processGroup) process.kill(-child.pid!, 'SIGKILL');
      else if (running()) child.kill('SIGKILL');
    } catch {
      // The group has already gone.
    }
  };
  return {
    child,
    output: () => (outputFile === undefined ? output : readFileSync(outputFile, 'utf8')),
    async stop(signal = 'SIGTERM', killAfterMs = STOP_DEADLINE_MS) {
      if (running()) child.kill(signal);
      const deadline = setTimeout(killAll, killAfterMs);
      const code = await exited;
      clearTimeout(deadline);
      // A leader that was killed leaves its children behind in the group.
      if (options.processGroup) killAll();
      return code;
    },
  };
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- tests read whatever JSON the route answered
export async function getJson(url: string): Promise<{ status: number; headers: Headers; body: any }> {
  const response = await fetch(url, { signal: AbortSignal.timeout(10_000) });
  return { status: response.status, headers: response.headers, body: await response.json() };
}

/** Where a process started by a test listens: its public port, and its admin port with the probes and metrics. */
export interface ProcessAddress {
  url: string;
  adminUrl: string;
  /** PORT and ADMIN_PORT for the process's environment. */
  env: { PORT: string; ADMIN_PORT: string };
}

export async function freeAddress(): Promise<ProcessAddress> {
  const [port, adminPort] = await Promise.all([freePort(), freePort()]);
  return { url: `http://127.0.0.1:${port}`, adminUrl: `http://127.0.0.1:${adminPort}`, env: { PORT: String(port), ADMIN_PORT: String(adminPort) } };
}

/** Whether the process whose admin port is at `adminUrl` says it is ready. */
export async function isReady(adminUrl: string): Promise<boolean> {
  return (await fetch(`${adminUrl}/readyz`, { signal: AbortSignal.timeout(2_000) })).status === 200;
}
