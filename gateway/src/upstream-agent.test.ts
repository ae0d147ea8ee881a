import { createServer, type Server } from 'node:http';
import type { Socket } from 'node:net';
import { portOf } from './server';
import { send } from './testing/gateway-harness';
import { RecyclingAgent, type SocketRecycling } from './upstream-agent';

/** A server that answers every request with the number of the connection it came on. */
interface CountingServer {
  url: string;
  /** Requests answered on each connection, in the order the connections were opened. */
  perConnection: number[];
  close(): Promise<void>;
}

const servers: CountingServer[] = [];
const agents: RecyclingAgent[] = [];

afterEach(async () => {
  agents.splice(0).forEach((agent) => agent.destroy());
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

async function countingServer(): Promise<CountingServer> {
  const perConnection: number[] = [];
  const numberOf = new WeakMap<Socket, number>();
  const server: Server = createServer((req, res) => {
    let number = numberOf.get(req.socket);
    if (number === undefined) {
      number = perConnection.push(0) - 1;
      numberOf.set(req.socket, number);
    }
    perConnection[number] += 1;
    res.end(String(number));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const started = {
    url: `http://127.0.0.1:${portOf(server)}`,
    perConnection,
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
    const agent = recyclingAgent({ maxAgeMs: 0, maxRequests: 3 });
    await inTurn(8, () => send(server.url, { agent }));
    expect(server.perConnection).toEqual([3, 3, 2]);
  });

  it('closes a connection after the first answer it completes once it is old enough', async () => {
    const server = await countingServer();
    let now = 0;
    const agent = recyclingAgent({ maxAgeMs: 1_000, maxRequests: 0, now: () => now });
    await inTurn(2, () => send(server.url, { agent }));
    now = 1_000;
    // Still sent on the old connection: it is closed after this answer, not while idle or in use.
    expect((await send(server.url, { agent })).reusedSocket).toBe(true);
    expect((await send(server.url, { agent })).reusedSocket).toBe(false);
    expect(server.perConnection).toEqual([3, 1]);
  });

  it('hands no retired connection to a request waiting for one, and fails none', async () => {
    const server = await countingServer();
    const agent = recyclingAgent({ maxAgeMs: 0, maxRequests: 1 }, 1);
    const answers = await Promise.all(Array.from({ length: 5 }, () => send(server.url, { agent })));
    expect(answers.map(({ status, body }) => [status, body])).toEqual([0, 1, 2, 3, 4].map((number) => [200, String(number)]));
    expect(server.perConnection).toEqual([1, 1, 1, 1, 1]);
  });

  it('keeps connections for good when neither limit is set', async () => {
    const server = await countingServer();
    let now = 0;
    const agent = recyclingAgent({ maxAgeMs: 0, maxRequests: 0, now: () => (now += 60_000) });
    await inTurn(5, () => send(server.url, { agent }));
    expect(server.perConnection).toEqual([5]);
  });
});
