import type { RequestListener, Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createHttpServer, type HttpServerOptions } from '@ledger-api/http';

/** Serves the handler; requests Node refuses, and clients slower than requestTimeoutMs, get the error body. */
export async function listen(handler: RequestListener, port: number, host: string, options: HttpServerOptions = {}): Promise<Server> {
  const server = createHttpServer(handler, options);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  return server;
}

export function portOf(server: Server): number {
  return (server.address() as AddressInfo).port;
}

const IDLE_SWEEP_INTERVAL_MS = 50;

/**
 * Stops accepting connections and lets in-flight requests finish; connections still
 * busy at the deadline are cut. Resolves true when everything finished in time.
 */
export function closeGracefully(server: Server, deadlineMs: number): Promise<boolean> {
  return new Promise((resolve) => {
    let drained = true;
    const deadline = setTimeout(() => {
      drained = false;
      server.closeAllConnections();
    }, deadlineMs);
    // A keep-alive connection stays open after its last answer and would hold close()
    // until the deadline, so connections are closed as soon as they fall idle.
    const idleSweep = setInterval(() => server.closeIdleConnections(), IDLE_SWEEP_INTERVAL_MS);
    server.close(() => {
      clearTimeout(deadline);
      clearInterval(idleSweep);
      resolve(drained);
    });
  });
}
