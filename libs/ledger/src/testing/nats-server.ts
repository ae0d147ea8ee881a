import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { connect } from '@nats-io/transport-node';
import { jetstreamManager } from '@nats-io/jetstream';
import { waitFor } from '@ledger-api/test-kit';

const NATS_SERVER = process.env.NATS_SERVER_BIN ?? '/usr/sbin/nats-server';
const READY_TIMEOUT_MS = 15_000;

/** A loopback port nothing listens on right now, picked by the OS. */
export async function freePort(): Promise<number> {
  const server = createServer().listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as { port: number };
  server.close();
  await once(server, 'close');
  return port;
}

/**
 * A nats-server with JetStream that belongs to one test: its own loopback port
 * and store directory, so it can be killed and restarted without touching any
 * server someone else relies on. A restart keeps the port and the store, as an
 * operator's restart of a crashed broker would.
 */
export class TestNatsServer {
  private process: ChildProcess | undefined;
  private exited: Promise<void> = Promise.resolve();
  private output = '';

  private constructor(
    readonly port: number,
    readonly storeDir: string,
    /** The user and password it asks clients for, if any. */
    readonly credentials?: { user: string; pass: string },
  ) {}

  /** Starts a server on a free port with an empty store; resolves once JetStream answers. */
  static async start(credentials?: { user: string; pass: string }): Promise<TestNatsServer> {
    const server = new TestNatsServer(await freePort(), await mkdtemp(join(tmpdir(), 'nats-store-')), credentials);
    await server.launch();
    return server;
  }

  get url(): string {
    return `nats://127.0.0.1:${this.port}`;
  }

  get running(): boolean {
    return this.process !== undefined;
  }

  /** SIGKILL, as a crash: nothing is flushed or closed cleanly. Resolves once the process is gone. */
  async kill(): Promise<void> {
    this.process?.kill('SIGKILL');
    await this.exited;
  }

  /** Starts the server again on the same port and store directory; resolves once JetStream answers. */
  async restart(): Promise<void> {
    if (this.running) throw new Error('nats-server is still running');
    await this.launch();
  }

  /** Kills the server and removes its store. */
  async dispose(): Promise<void> {
    await this.kill();
    await rm(this.storeDir, { recursive: true, force: true });
  }

  private async launch(): Promise<void> {
    const signIn = this.credentials ? ['--user', this.credentials.user, '--pass', this.credentials.pass] : [];
    const child = spawn(NATS_SERVER, ['-a', '127.0.0.1', '-p', String(this.port), '-js', '-sd', this.storeDir, ...signIn], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    this.process = child;
    this.output = '';
    child.stdout?.on('data', (chunk) => (this.output += chunk));
    child.stderr?.on('data', (chunk) => (this.output += chunk));
    this.exited = once(child, 'exit').then(() => {
      if (this.process === child) this.process = undefined;
    });
    // A server that exited ends the wait at once (waitFor would keep polling past a thrown error).
    await waitFor(() => !this.running || this.jetStreamAnswers(), `nats-server on port ${this.port} to answer JetStream requests`, READY_TIMEOUT_MS);
    if (!this.running) throw new Error(`nats-server on port ${this.port} exited while starting:\n${this.output}`);
  }

  private async jetStreamAnswers(): Promise<boolean> {
    try {
      const connection = await connect({ servers: this.url, ...this.credentials, reconnect: false, timeout: 1_000 });
      try {
        await (await jetstreamManager(connection)).getAccountInfo();
        return true;
      } finally {
        await connection.close();
      }
    } catch {
      return false;
    }
  }
}
