import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { createServer } from 'node:net';
import { resolve } from 'node:path';

export const ROOT = resolve(__dirname, '../../..');

/** A port nothing listens on right now, picked by the OS. */
export async function freePort(): Promise<number> {
  const server = createServer().listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as { port: number };
  server.close();
  await once(server, 'close');
  return port;
}

export interface RunningProcess {
  child: ChildProcess;
  output(): string;
  stop(signal?: NodeJS.Signals): Promise<number | null>;
}

/** Starts `node <entry>` from the repository root with the given environment added. */
export function startProcess(entry: string, env: Record<string, string>): RunningProcess {
  const child = spawn(process.execPath, [resolve(ROOT, entry)], {
    env: { ...process.env, LOG_LEVEL: 'warn', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout?.on('data', (chunk) => (output += chunk));
  child.stderr?.on('data', (chunk) => (output += chunk));
  const exited = once(child, 'exit').then(([code]) => code as number | null);
  return {
    child,
    output: () => output,
    async stop(signal = 'SIGTERM') {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
      return exited;
    },
  };
}

/** Polls `probe` until it returns true, failing with `what` after the deadline. */
export async function waitFor(what: string, probe: () => Promise<boolean>, timeoutMs = 60_000, everyMs = 200): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (await probe().catch(() => false)) return;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((done) => setTimeout(done, everyMs));
  }
}

export async function getJson(url: string): Promise<{ status: number; headers: Headers; body: any }> {
  const response = await fetch(url, { signal: AbortSignal.timeout(10_000) });
  return { status: response.status, headers: response.headers, body: await response.json() };
}

export async function isReady(baseUrl: string): Promise<boolean> {
  return (await fetch(`${baseUrl}/readyz`, { signal: AbortSignal.timeout(2_000) })).status === 200;
}
