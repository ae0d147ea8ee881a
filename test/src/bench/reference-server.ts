import { readFileSync } from 'node:fs';
import { Agent, createServer, request, type IncomingMessage, type ServerResponse } from 'node:http';
import { createRequire } from 'node:module';
import express from 'express';
import { createProxyMiddleware } from 'http-proxy-middleware';

/**
 * `node reference-server.js <hapi|bare> <fixtures.json> <port>`: serves the bytes the
 * stack answered with, from memory, as yardsticks for the benchmark. `bare` is
 * node:http alone, sending stored bytes (br too); `hapi` is hapi 20 with its
 * default compression (gzip for bodies of 1 KB and more).
 *
 * `node reference-server.js proxy <service URL> <port>`: node:http alone forwarding
 * `/api/<path>` to the service's `/<path>` over kept-alive connections, as the gateway
 * does: the least a Node proxy costs on this machine.
 *
 * `node reference-server.js express-proxy <service URL> <port>`: the same forwarding by
 * Express and http-proxy-middleware, the gateway's framework and proxy, with nothing
 * else: the least the gateway's way of proxying costs.
 */
export interface Fixture {
  method: 'GET' | 'POST';
  path: string;
  identity: string;
  /** The stack's br body, base64; bare sends it to clients that accept br. */
  br?: string;
}

const JSON_TYPE = 'application/json; charset=utf-8';

interface Bodies {
  identity: Buffer;
  br?: Buffer;
}

function serveBare(fixtures: Fixture[], port: number): void {
  const routes = new Map<string, Bodies>(
    fixtures.map((fixture) => [
      `${fixture.method} ${fixture.path}`,
      { identity: Buffer.from(fixture.identity), br: fixture.br === undefined ? undefined : Buffer.from(fixture.br, 'base64') },
    ]),
  );
  const answer = (req: IncomingMessage, res: ServerResponse) => {
    const bodies = routes.get(`${req.method} ${(req.url ?? '').split('?')[0]}`);
    if (!bodies) return res.writeHead(404).end();
    const br = bodies.br && (req.headers['accept-encoding'] ?? '').includes('br');
    const headers: Record<string, string | number> = { 'content-type': JSON_TYPE };
    if (br) headers['content-encoding'] = 'br';
    const body = br ? bodies.br! : bodies.identity;
    headers['content-length'] = body.length;
    res.writeHead(200, headers).end(body);
  };
  createServer((req, res) => {
    req.resume();
    req.once('end', () => answer(req, res));
  }).listen(port, '127.0.0.1');
}

/** The slice of hapi 20 used here; the package ships no type declarations. */
interface HapiServer {
  route(route: { method: string; path: string; handler: (request: unknown, h: HapiToolkit) => unknown }): void;
  start(): Promise<void>;
}
interface HapiToolkit {
  response(body: string): { type(type: string): unknown };
}
interface Hapi {
  server(options: { port: number; host: string }): HapiServer;
}

async function serveHapi(fixtures: Fixture[], port: number): Promise<void> {
  const hapi = createRequire(__filename)('@hapi/hapi') as Hapi;
  const server = hapi.server({ port, host: '127.0.0.1' });
  for (const fixture of fixtures) {
    server.route({ method: fixture.method, path: fixture.path, handler: (_request, h) => h.response(fixture.identity).type(JSON_TYPE) });
  }
  await server.start();
}

function serveProxy(service: string, port: number): void {
  const { hostname, port: servicePort } = new URL(service);
  const agent = new Agent({ keepAlive: true, maxSockets: 64 });
  createServer((req, res) => {
    const path = (req.url ?? '/').replace(/^\/api/, '');
    const forwarded = request({ host: hostname, port: servicePort, method: req.method, path, headers: req.headers, agent }, (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
    });
    forwarded.on('error', () => res.destroy());
    req.pipe(forwarded);
  }).listen(port, '127.0.0.1');
}

function serveExpressProxy(service: string, port: number): void {
  const app = express();
  const agent = new Agent({ keepAlive: true, maxSockets: 64 });
  app.use('/api', createProxyMiddleware({ target: service, agent, changeOrigin: true }));
  app.listen(port, '127.0.0.1');
}

const readFixtures = (file: string) => JSON.parse(readFileSync(file, 'utf8')) as Fixture[];

async function main(): Promise<void> {
  const [kind, source, port] = process.argv.slice(2);
  if (kind === 'bare') serveBare(readFixtures(source), Number(port));
  else if (kind === 'hapi') await serveHapi(readFixtures(source), Number(port));
  else if (kind === 'proxy') serveProxy(source, Number(port));
  else if (kind === 'express-proxy') serveExpressProxy(source, Number(port));
  else throw new Error(`unknown server kind ${kind}`);
}

if (require.main === module) {
  main().catch((error: Error) => {
    process.stderr.write(`${error.stack ?? error.message}\n`);
    process.exit(1);
  });
}
