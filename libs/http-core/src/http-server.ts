import { createServer, STATUS_CODES, type IncomingMessage, type Server, type ServerOptions, type ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import { errorBody } from './errors';

/** How long a client may take to send a whole request, headers and body, before it gets 408. */
export const DEFAULT_REQUEST_TIMEOUT_MS = 10_000;

/**
 * How long an idle keep-alive connection stays open. Load balancers keep idle
 * connections to their targets for 60 s and more; a target that closes first
 * races a reused connection and the client gets a 502.
 */
export const DEFAULT_KEEP_ALIVE_TIMEOUT_MS = 65_000;

export interface HttpServerOptions {
  requestTimeoutMs?: number;
  keepAliveTimeoutMs?: number;
  /** The classes requests and responses are made of, as node:http's createServer takes them. */
  messageClasses?: Pick<ServerOptions, 'IncomingMessage' | 'ServerResponse'>;
}

// After a refusal the server stops writing but keeps reading a while before it lets go:
// closing a socket with unread input resets the connection, and a reset can wipe the
// answer from the client's buffers before the client has read it.
const LINGER_MS = 2_000;

// Node checks request deadlines every 30 s by default, far too coarse for a 408 on time.
const MAX_DEADLINE_CHECK_INTERVAL_MS = 1_000;

const METHOD_THEN_SPACE = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+ /;

type ParserError = Error & { code?: string; rawPacket?: Buffer };

interface Exchange {
  req: IncomingMessage;
  res: ServerResponse;
}

/** The exchange in progress on each connection, until its request is read and answered. */
const exchanges = new WeakMap<Duplex, Exchange>();
const refusedConnections = new WeakSet<Duplex>();

function jsonError(status: number, message: string): { body: string; headers: Record<string, string | number> } {
  const body = JSON.stringify(errorBody(status, message));
  const headers = {
    'Content-Type': 'application/json; charset=utf-8',
    'Content-Length': Buffer.byteLength(body),
    'Cache-Control': 'no-store',
    Connection: 'close',
  };
  return { body, headers };
}

/** Answers on the bare socket: Node refused the request before any ServerResponse existed. */
function refuse(socket: Duplex, status: number): void {
  refusedConnections.add(socket);
  const reason = STATUS_CODES[status] ?? 'Error';
  const { body, headers } = jsonError(status, reason);
  const head = Object.entries(headers)
    .map(([name, value]) => `${name}: ${value}\r\n`)
    .join('');
  socket.end(`HTTP/1.1 ${status} ${reason}\r\n${head}\r\n${body}`);
  const linger = setTimeout(() => socket.destroy(), LINGER_MS);
  socket.once('close', () => clearTimeout(linger));
}

function refusalStatus(error: ParserError): number {
  switch (error.code) {
    case 'HPE_HEADER_OVERFLOW':
      return 431;
    case 'ERR_HTTP_REQUEST_TIMEOUT':
      return 408;
    case 'HPE_INVALID_METHOD':
      // A well-formed request line with a method the parser does not know (docs/behaviour.md section 1).
      return METHOD_THEN_SPACE.test(error.rawPacket?.toString('latin1') ?? '') ? 404 : 400;
    default:
      return 400;
  }
}

function isRefusal(error: ParserError): boolean {
  return error.code === 'ERR_HTTP_REQUEST_TIMEOUT' || error.code?.startsWith('HPE_') === true;
}

function onClientError(error: ParserError, socket: Duplex): void {
  // Further input on a refused connection fails parsing again: it was answered already.
  if (refusedConnections.has(socket)) return;
  const exchange = exchanges.get(socket);
  // A connection error is the client's own doing; nobody is left to answer. An answer
  // already on its way (or sent for a body still arriving) cannot be followed by another.
  if (!isRefusal(error) || !socket.writable || exchange?.res.headersSent) {
    socket.destroy();
    return;
  }
  // A bad request pipelined behind a good one is refused once the good one is answered.
  if (exchange?.req.complete) {
    refusedConnections.add(socket);
    exchange.res.once('finish', () => (socket.writable ? refuse(socket, refusalStatus(error)) : socket.destroy()));
    return;
  }
  // The refused request's handler may still be reading its body: a client that sends the
  // rest after its 408 must not have the request served as well.
  exchange?.req.pause();
  refuse(socket, refusalStatus(error));
}

function trackExchange(req: IncomingMessage, res: ServerResponse): void {
  const { socket } = req;
  exchanges.set(socket, { req, res });
  const forget = () => {
    if (exchanges.get(socket)?.res === res) exchanges.delete(socket);
  };
  // An answer may leave before its request body is read to the end (a 413); the exchange
  // lasts until the rest has been discarded.
  res.once('finish', () => (req.complete ? forget() : req.once('end', forget)));
}

// RFC 9112 section 3.2: an HTTP/1.1 request without Host is a 400. Node's own check answers with an empty body.
const lacksHost = (req: IncomingMessage) => req.httpVersion === '1.1' && req.headers.host === undefined;

function refuseMissingHost(res: ServerResponse): void {
  const { body, headers } = jsonError(400, 'Missing Host header');
  res.writeHead(400, headers).end(body);
}

/**
 * An HTTP server whose refusals answer in the API's error format: malformed requests (400),
 * unknown methods (404), oversized headers or URLs (431) and clients that do not send their
 * request within the deadline (408).
 */
/**
 * An app's request handler: Express's returns nothing, Koa's (`app.callback()`) a promise
 * that never rejects, since Koa answers its own errors.
 */
export type RequestHandlerOf = (req: IncomingMessage, res: ServerResponse) => void | Promise<void>;

export function createHttpServer(handler: RequestHandlerOf, options: HttpServerOptions = {}): Server {
  const timeoutMs = options.requestTimeoutMs ?? DEFAULT_REQUEST_TIMEOUT_MS;
  const server = createServer(
    {
      requireHostHeader: false,
      headersTimeout: timeoutMs,
      requestTimeout: timeoutMs,
      connectionsCheckingInterval: Math.min(timeoutMs, MAX_DEADLINE_CHECK_INTERVAL_MS),
      // The header deadline runs from a request's first byte, not over idle time, so it does not race the idle timeout.
      keepAliveTimeout: options.keepAliveTimeoutMs ?? DEFAULT_KEEP_ALIVE_TIMEOUT_MS,
      ...options.messageClasses,
    },
    (req, res) => {
      trackExchange(req, res);
      if (lacksHost(req)) refuseMissingHost(res);
      // The app answers every request itself, failures included: nothing to wait for here.
      else void handler(req, res);
    },
  );
  server.on('clientError', onClientError);
  // Without a listener Node drops a CONNECT silently; for this API it is an unknown method.
  server.on('connect', (_req: IncomingMessage, socket: Duplex) => refuse(socket, 404));
  return server;
}
