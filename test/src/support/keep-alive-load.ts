import { Agent, request } from 'node:http';

/** What one request came to: `answered` (200, whole), `refused` (no connection), or what went wrong. */
export type Outcome = 'answered' | 'refused' | string;

/** One GET on a keep-alive agent, classified. */
export function ask(agent: Agent, url: string): Promise<Outcome> {
  return new Promise((resolve) => {
    const req = request(url, { agent }, (res) => {
      res.resume();
      res.once('end', () => resolve(res.statusCode === 200 && res.complete ? 'answered' : `status ${res.statusCode}`));
      res.once('error', (error) => resolve(`cut mid-answer: ${error.message}`));
    });
    req.once('error', (error: NodeJS.ErrnoException) =>
      resolve(error.code === 'ECONNREFUSED' ? 'refused' : `failed: ${error.code ?? error.message}`),
    );
    req.end();
  });
}

export interface SteadyLoad {
  /** Every outcome so far, in the order the answers came. */
  outcomes: Outcome[];
  /** Ends the loops after the requests in flight; every outcome. */
  stop(): Promise<Outcome[]>;
}

/**
 * `clients` keep-alive clients each asking `url` again as soon as they have an answer, until
 * stopped, `maxMs` have passed or `maxRequests` were sent, whichever comes first.
 */
export function steadyLoad(url: string, { clients, maxMs, maxRequests }: { clients: number; maxMs: number; maxRequests: number }): SteadyLoad {
  const agent = new Agent({ keepAlive: true, maxSockets: clients });
  const outcomes: Outcome[] = [];
  const endsAt = performance.now() + maxMs;
  let sent = 0;
  let stopped = false;
  const client = async () => {
    while (!stopped && performance.now() < endsAt && sent < maxRequests) {
      sent += 1;
      outcomes.push(await ask(agent, url));
    }
  };
  const done = Promise.all(Array.from({ length: clients }, client)).finally(() => agent.destroy());
  return {
    outcomes,
    async stop() {
      stopped = true;
      await done;
      return outcomes;
    },
  };
}
