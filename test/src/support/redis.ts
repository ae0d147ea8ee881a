import { connect } from 'node:net';
import { freePort, startCommand, type RunningProcess } from './processes';
import { waitFor } from '@ledger-api/test-kit';

/** A redis-server of the test's own on a free port: no persistence, never the machine's shared one. */
export interface TestRedis {
  port: number;
  url: string;
  process: RunningProcess;
  /** Kills this redis-server at once (SIGKILL). */
  kill(): Promise<void>;
  /** Starts a fresh, empty redis-server on the same port. */
  restart(): Promise<void>;
}

const REDIS_SERVER = process.env.REDIS_SERVER_BIN ?? 'redis-server';

/** Sends one command in RESP and returns the raw reply line, e.g. `:3` or `+PONG`. */
export function redisCommand(port: number, ...args: string[]): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    let reply = '';
    socket.setTimeout(2_000, () => socket.destroy(new Error('redis did not answer')));
    socket.on('error', reject);
    socket.on('data', (chunk) => {
      reply += chunk;
      if (reply.includes('\r\n')) {
        socket.end();
        resolve(reply.slice(0, reply.indexOf('\r\n')));
      }
    });
    socket.write(`*${args.length}\r\n${args.map((arg) => `$${Buffer.byteLength(arg)}\r\n${arg}\r\n`).join('')}`);
  });
}

/** How many keys match `pattern`, counted inside Redis (fine on a test's own small Redis). */
export async function redisKeyCount(port: number, pattern: string): Promise<number> {
  const reply = await redisCommand(port, 'EVAL', "return #redis.call('KEYS', ARGV[1])", '0', pattern);
  if (!reply.startsWith(':')) throw new Error(`unexpected redis reply ${reply}`);
  return Number(reply.slice(1));
}

function launch(port: number): RunningProcess {
  return startCommand(REDIS_SERVER, ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], {});
}

async function waitUntilServing(port: number): Promise<void> {
  await waitFor(async () => (await redisCommand(port, 'PING')) === '+PONG', `redis-server on port ${port}`, 10_000, 50);
}

export async function startTestRedis(): Promise<TestRedis> {
  const port = await freePort();
  const redis: TestRedis = {
    port,
    url: `redis://127.0.0.1:${port}`,
    process: launch(port),
    kill: async () => void (await redis.process.stop('SIGKILL')),
    restart: async () => {
      redis.process = launch(port);
      await waitUntilServing(port);
    },
  };
  await waitUntilServing(port);
  return redis;
}
