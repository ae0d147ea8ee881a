import type { Server } from 'node:http';
import { Server as NetServer } from 'node:net';

export interface DrainOptions {
  /** Serve on as usual this long first, while the load balancer stops sending here (Kubernetes preStop). */
  delayMs: number;
  /** How long requests on open connections are still answered, each with `Connection: close`. */
  drainMs: number;
  /** When what still runs is cut; the drain counts as failed then. */
  deadlineMs: number;
  /**
   * Called once the delay is over, before the port stops accepting: what never ends by itself
   * (live streams) is ended here, while the process is out of the load balancers already.
   */
  onDelayEnd?(): void;
}

const IDLE_SWEEP_INTERVAL_MS = 50;

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Takes a server out of service without failing a request: after `delayMs` it stops
 * accepting connections; for `drainMs` every request that arrives on an open connection is
 * still answered, with `Connection: close`, so its client goes elsewhere for the next one;
 * then idle connections are closed as they fall idle, and whatever still runs at
 * `deadlineMs` is cut. Resolves true when everything ended in time.
 *
 * Node's own close() would close idle keep-alive connections at once, racing a client that
 * is sending on one (it sees a reset): here the listening socket alone is closed first.
 */
export async function drainServer(server: Server, { delayMs, drainMs, deadlineMs, onDelayEnd }: DrainOptions): Promise<boolean> {
  if (delayMs > 0) await pause(delayMs);
  onDelayEnd?.();
  server.prependListener('request', (_req, res) => res.setHeader('Connection', 'close'));
  const closed = new Promise<void>((resolve) => NetServer.prototype.close.call(server, () => resolve()));
  let drained = true;
  const deadline = setTimeout(() => {
    drained = false;
    server.closeAllConnections();
  }, deadlineMs);
  await Promise.race([closed, pause(drainMs)]);
  const idleSweep = setInterval(() => server.closeIdleConnections(), IDLE_SWEEP_INTERVAL_MS);
  server.closeIdleConnections();
  await closed;
  clearTimeout(deadline);
  clearInterval(idleSweep);
  // What Node's close() does besides: it stops the timer of the request deadlines.
  server.close();
  return drained;
}
