import { connect, createServer, type AddressInfo, type Socket } from 'node:net';

/**
 * A balancer of connections, not requests, as a Kubernetes Service is: each connection it
 * accepts is piped whole to the next backend in turn, whatever it carries. Backends can be
 * added and removed while it runs; a removed one gets no new connection, and those it has
 * stay piped to it until either end closes them.
 */
export interface TcpBalancer {
  url: string;
  add(backendUrl: string): void;
  remove(backendUrl: string): void;
  close(): Promise<void>;
}

/** Pipes both ways, ends passed on (an HTTP server's `Connection: close` reaches the client as it sent it); an error cuts both. */
function splice(client: Socket, backend: Socket): void {
  client.pipe(backend);
  backend.pipe(client);
  const cut = () => {
    client.destroy();
    backend.destroy();
  };
  client.once('error', cut);
  backend.once('error', cut);
  client.once('close', () => backend.end());
  backend.once('close', () => client.end());
}

export async function startTcpBalancer(backendUrls: string[] = []): Promise<TcpBalancer> {
  const backends = [...backendUrls];
  const open = new Set<Socket>();
  let turn = 0;
  const server = createServer({ allowHalfOpen: true }, (client) => {
    if (backends.length === 0) return client.destroy();
    const { hostname, port } = new URL(backends[turn++ % backends.length]);
    const backend = connect({ host: hostname, port: Number(port), allowHalfOpen: true });
    for (const socket of [client, backend]) {
      open.add(socket);
      socket.once('close', () => open.delete(socket));
    }
    splice(client, backend);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    add: (backendUrl) => void backends.push(backendUrl),
    remove(backendUrl) {
      const at = backends.indexOf(backendUrl);
      if (at !== -1) backends.splice(at, 1);
    },
    async close() {
      for (const socket of open) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
