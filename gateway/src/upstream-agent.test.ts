import { createServer, type Server } from 'node:http';
import type { Socket } from 'node:net';
import { waitFor } from '@ledger-api/test-kit';
import { portOf } from './server';
import { send } from './testing/gateway-harness';
import { RecyclingAgent, type SocketRecycling } from './upstream-agent';

/** A server that answers every request with the number of the connection it came on. */
interface CountingServer {
  url: string;
  /** Requests answered on each connection, in the order the connections were opened. */
  perConnection: number[];
  /** Connections closed so far, by either end. */
  closed(): number;
  close(): Promise<void>;
}

const servers: CountingServer[] = [];
const agents: RecyclingAgent[] = [];

afterEach(async () => {
  agents.splice(0).forEach((agent) => agent.destroy());
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

/** `answerAfterMs`: how long each answer takes. */
async function countingServer(answerAfterMs = 0): Promise<CountingServer> {
  const perConnection: number[] = [];
  const numberOf = new WeakMap<Socket, number>();
  let closed = 0;
  const server: Server = createServer((req, res) => {
    let number = numberOf.get(req.socket);
    if (number === undefined) {
      number = perConnection.push(0) - 1;
      numberOf.set(req.socket, number);
    }
    perConnection[number] += 1;
    setTimeout(() => res.end(String(number)), answerAfterMs);
  });
  server.on('connection', (socket) => socket.on('close', () => (closed += 1)));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const started = {
    url: `http://127.0.0.1:${portOf(server)}`,
    perConnection,
    closed: () => closed,
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
  servers.push(started);
  return started;
}

function recyclingAgent(recycling: SocketRecycling, maxSockets = 4): RecyclingAgent {
  const agent = new RecyclingAgent({ keepAlive: true, maxSockets, scheduling: 'lifo' }, recycling);
  agents.push(agent);
  return agent;
}

const inTurn = async (count: number, ask: () => Promise<unknown>) => {
  for (let sent = 0; sent < count; sent += 1) await ask();
};

describe('the upstream agent', () => {
  it('closes a connection after its last allowed answer, and opens a new one for the next request', async () => {
    const server = await countingServer();
    const agent = recyclingAgent({ idleMs: 0, maxAgeMs: 0, maxRequests: 3 });
    await inTurn(8, () => send(server.url, { agent }));
    expect(server.perConnection).toEqual([3, 3, 2]);
  });

  it('closes a connection after the first answer it completes once it is old enough', async () => {
    const server = await countingServer();
    let now = 0;
    const agent = recyclingAgent({ idleMs: 0, maxAgeMs: 1_000, maxRequests: 0, now: () => now });
    await inTurn(2, () => send(server.url, { agent }));
    now = 1_000;
    // Still sent on the old connection: it is closed after this answer, not while idle or in use.
    expect((await send(server.url, { agent })).reusedSocket).toBe(true);
    expect((await send(server.url, { agent })).reusedSocket).toBe(false);
    expect(server.perConnection).toEqual([3, 1]);
  });

  it('hands no retired connection to a request waiting for one, and fails none', async () => {
    const server = await countingServer();
    const agent = recyclingAgent({ idleMs: 0, maxAgeMs: 0, maxRequests: 1 }, 1);
    const answers = await Promise.all(Array.from({ length: 5 }, () => send(server.url, { agent })));
    expect(answers.map(({ status, body }) => [status, body])).toEqual([0, 1, 2, 3, 4].map((number) => [200, String(number)]));
    expect(server.perConnection).toEqual([1, 1, 1, 1, 1]);
  });

  it('keeps connections for good when neither limit is set', async () => {
    const server = await countingServer();
    let now = 0;
    const agent = recyclingAgent({ idleMs: 0, maxAgeMs: 0, maxRequests: 0, now: () => (now += 60_000) });
    await inTurn(5, () => send(server.url, { agent }));
    expect(server.perConnection).toEqual([5]);
  });

  it('closes a connection that idles in the pool past its idle time, and opens a new one for the next request', async () => {
    const server = await countingServer();
    const agent = recyclingAgent({ idleMs: 300, maxAgeMs: 0, maxRequests: 0 });
    await send(server.url, { agent });
    // Well within the idle time: the connection is still in the pool.
    expect((await send(server.url, { agent })).reusedSocket).toBe(true);
    await waitFor(() => server.closed() === 1, 'the idle connection to close', 5_000, 20);
    expect((await send(server.url, { agent })).reusedSocket).toBe(false);
    expect(server.perConnection).toEqual([2, 1]);
  });

  it('never closes a connection while it carries a request, however long past the idle time its answer takes', async () => {
    const server = await countingServer(600);
    const agent = recyclingAgent({ idleMs: 50, maxAgeMs: 0, maxRequests: 0 });
    // Once a connection is back in the pool, the agent looks for idle ones every 50 ms: each answer takes twelve times that.
    await send(server.url, { agent });
    const answers = await Promise.all([send(server.url, { agent }), send(server.url, { agent })]);
    expect(answers.map(({ status, body }) => [status, body])).toEqual([
      [200, '0'],
      [200, '1'],
    ]);
  });
});
