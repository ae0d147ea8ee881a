import type { IncomingMessage, ServerResponse } from 'node:http';
import type { TLSSocket } from 'node:tls';
import cors from 'cors';
import type { Request, RequestHandler, Response } from 'express';
import helmet from 'helmet';
import { INTERNAL_HEADERS, REQUEST_ID_HEADER } from '@ledger-api/http-core';

/*
 * Which headers pass the gateway, decided here and nowhere else.
 *
 * An answer's headers, in the order they are set (a later one of a name replaces an earlier):
 *  1. the gateway's own: X-Request-Id, the fixed security and CORS headers (worked out once
 *     at start), then the rate limit's;
 *  2. the service's, proxied or kept at the edge, less what it tells the gateway alone
 *     (INTERNAL_HEADERS) and its access-control-* (the gateway owns the CORS policy): a
 *     service's own value of a header in 1 wins, whether proxied or answered at the edge;
 *  3. an edge answer of 304 goes without the headers that describe a body, as a service sends it.
 * A proxied answer's head is written at once, 2 then those of 1 the service did not send; an
 * answer Express routes otherwise gets those of 1 its handler did not set as its head goes out.
 * An answer kept at the edge holds 2 less the headers of one connection or one sending; one
 * kept until its area's data changes also goes without the head it was read at
 * (X-Block-Height, X-Block-Id), which the edge sets anew for the head it is sent at.
 *
 * A request sent to a service: the client's headers, with its request id set, its body's
 * length as the gateway read it (no Transfer-Encoding; no Expect, already answered), and
 * X-Forwarded-* as the client sent them with the gateway's hop added, once however often it is sent.
 */

/** The answer headers a script on another origin may read. */
const EXPOSED_HEADERS = [
  'X-Block-Height',
  'X-Block-Id',
  'X-Request-Id',
  'ETag',
  'Cache-Control',
  'Retry-After',
  'RateLimit',
  'RateLimit-Policy',
  'X-RateLimit-Limit',
  'X-RateLimit-Remaining',
  'X-RateLimit-Reset',
];

/**
 * The security headers of a JSON API (OWASP's REST security cheat sheet): it renders
 * nothing, so no content sources and no framing; no sniffing; HTTPS only; resources
 * meant to be read cross-origin, as the open CORS policy says. The headers that only
 * govern HTML documents are left to the reference page (see apiReference): on every
 * answer they would cost bytes and time and protect nothing.
 */
function securityHeaders(): RequestHandler {
  return helmet({
    contentSecurityPolicy: { useDefaults: false, directives: { defaultSrc: ["'none'"], frameAncestors: ["'none'"] } },
    crossOriginResourcePolicy: { policy: 'cross-origin' },
    frameguard: { action: 'deny' },
    crossOriginOpenerPolicy: false,
    originAgentCluster: false,
    referrerPolicy: false,
    xDnsPrefetchControl: false,
    xDownloadOptions: false,
    xPermittedCrossDomainPolicies: false,
    xXssProtection: false,
  });
}

const corsPolicy = cors({ origin: '*', methods: ['GET', 'HEAD', 'POST', 'OPTIONS'], exposedHeaders: EXPOSED_HEADERS, maxAge: 600 });

/**
 * The headers the given middleware set on every answer, found once at start by running them
 * against a recording response: per request they are copied, not worked out again.
 */
function headersSetBy(handlers: RequestHandler[]): [string, string][] {
  const headers = new Map<string, string>();
  const recorder = {
    setHeader: (name: string, value: unknown) => headers.set(name, String(value)),
    getHeader: (name: string) => headers.get(name),
    removeHeader: (name: string) => headers.delete(name),
  };
  for (const handler of handlers) {
    let passedOn = false;
    void handler({ method: 'GET', headers: {} } as Request, recorder as unknown as Response, () => (passedOn = true));
    // Headers that depend on the request, or that come later, cannot be fixed in advance.
    if (!passedOn) throw new Error('a middleware of fixed headers must pass every request on at once');
  }
  return [...headers];
}

export type HeaderList = ReadonlyArray<readonly [string, string | string[]]>;

const FOR_THE_GATEWAY_ALONE = new Set(INTERNAL_HEADERS);
// Node writes these for its own connection to the client.
const OF_ONE_CONNECTION = new Set(['connection', 'keep-alive', 'transfer-encoding']);
const OF_ONE_SENDING = new Set(['date', ...OF_ONE_CONNECTION, REQUEST_ID_HEADER]);
const NAME_THE_HEAD = new Set(['x-block-height', 'x-block-id']);
const DESCRIBE_A_BODY = new Set(['content-type', 'content-length', 'content-encoding']);

/** Whether a header of a service's answer (lower-case, as Node gives it) reaches the client. */
export const passesFromService = (name: string): boolean => !FOR_THE_GATEWAY_ALONE.has(name) && !name.startsWith('access-control-');

/** A service's answer's headers as the edge keeps them: without the head's when kept beyond its block. */
export function keptHeadersOf(headers: IncomingMessage['headers'], holdsUntilDataChanges = false): HeaderList {
  const kept: Array<readonly [string, string | string[]]> = [];
  for (const name of Object.keys(headers)) {
    const value = headers[name];
    const sentAnew = holdsUntilDataChanges && NAME_THE_HEAD.has(name);
    if (value !== undefined && passesFromService(name) && !OF_ONE_SENDING.has(name) && !sentAnew) kept.push([name, value]);
  }
  return kept;
}

/** A kept answer's headers on a 304. */
export const notModifiedHeadersOf = (headers: HeaderList): HeaderList => headers.filter(([name]) => !DESCRIBE_A_BODY.has(name));

/** Headers in the flat form writeHead takes at once, name then value: no header map is built for them. */
export function flatHeaders(...lists: HeaderList[]): Array<string | string[]> {
  const headers: Array<string | string[]> = [];
  for (const list of lists) for (const [name, value] of list) headers.push(name, value);
  return headers;
}

// The port a client asked for, when its Host names one: `host:port`, `[v6 address]:port`.
const HOST_PORT = /:(\d+)$/;

/** A hop added to a client's list of them (X-Forwarded-For: client, proxy, ...). */
const withHop = (sent: string | string[] | undefined, hop: string): string => (sent === undefined || sent === '' ? hop : `${String(sent)},${hop}`);

/**
 * Adds the gateway's hop to the client's X-Forwarded-* headers, as http-proxy's `xfwd` would,
 * once per request: a request sent again to another replica goes with the same headers. Done
 * here under fixed names: http-proxy builds each name anew for every request and sending,
 * which V8 then has to flatten and look up.
 */
function addForwardedHop(req: IncomingMessage): void {
  const { headers, socket } = req;
  const encrypted = (socket as TLSSocket).encrypted === true;
  const port = headers.host?.match(HOST_PORT)?.[1] ?? (encrypted ? '443' : '80');
  headers['x-forwarded-for'] = withHop(headers['x-forwarded-for'], socket.remoteAddress ?? '');
  headers['x-forwarded-port'] = withHop(headers['x-forwarded-port'], port);
  headers['x-forwarded-proto'] = withHop(headers['x-forwarded-proto'], encrypted ? 'https' : 'http');
  headers['x-forwarded-host'] ||= headers.host ?? '';
}

/** Readies a request's headers for its service, just before it is proxied. */
export function prepareServiceRequest(req: IncomingMessage, { id, body }: { id: string; body: Buffer | undefined }): void {
  req.headers[REQUEST_ID_HEADER] = id;
  addForwardedHop(req);
  // Node already answered `100 Continue` to the client. With the header still set,
  // http-proxy skips its proxyReq event, and with it the upstream deadline.
  delete req.headers.expect;
  if (body) {
    // The service gets the body with its length, whether the client sent it chunked or not.
    req.headers['content-length'] = String(body.length);
    delete req.headers['transfer-encoding'];
  }
}

type FixedHeaders = ReadonlyArray<readonly [string, string]>;

// The gateway's own header names in lower case, as Node names a service's: they are few and fixed.
const lowerCaseNames = new Map<string, string>();
function lowerCaseOf(name: string): string {
  let lower = lowerCaseNames.get(name);
  if (lower === undefined) {
    lower = name.toLowerCase();
    lowerCaseNames.set(name, lower);
  }
  return lower;
}

/** Adds one of the gateway's own headers to a proxied head, unless the service sent it. */
function addUnlessSent(head: string[], sent: ReadonlySet<string>, name: string, value: string): void {
  if (!sent.has(lowerCaseOf(name))) head.push(name, value);
}

export interface HeaderPolicy {
  /** Sets the gateway's own headers (1) on an answer Express routes, as its head goes out: all but those its handler set. */
  setOwnHeadersUnlessSet(res: ServerResponse, id: string, rateLimit: FixedHeaders): void;
  /**
   * A proxied answer's whole head, flat, from the service's headers as received: those that pass
   * (2, less the headers of one connection), then the gateway's own (1) but those the service sent.
   */
  proxiedHead(id: string, rawHeaders: readonly string[], rateLimit: FixedHeaders): string[];
  /** The gateway's own headers (1) on an edge answer whose service headers are `entryHeaders`, a service's own value winning. */
  gatewayHeadersBeside(id: string, entryHeaders: HeaderList, rateLimit: FixedHeaders): FixedHeaders;
  /** Answers a CORS preflight request; passes every other request on. */
  preflight: RequestHandler;
}

/** The gateway's headers policy: its fixed headers are worked out once, here. */
export function headerPolicy(): HeaderPolicy {
  const fixedHeaders = headersSetBy([securityHeaders(), corsPolicy]);
  // Kept entries are few and long-lived: each one's fixed headers are filtered once.
  const fixedBeside = new WeakMap<HeaderList, ReadonlyArray<readonly [string, string]>>();
  const fixedHeadersBeside = (entryHeaders: HeaderList) => {
    let fixed = fixedBeside.get(entryHeaders);
    if (!fixed) {
      const own = new Set(entryHeaders.map(([name]) => name));
      fixed = fixedHeaders.filter(([name]) => !own.has(name.toLowerCase()));
      fixedBeside.set(entryHeaders, fixed);
    }
    return fixed;
  };
  const ownHeaders = (id: string, rateLimit: FixedHeaders): FixedHeaders => [['X-Request-Id', id], ...fixedHeaders, ...rateLimit];
  return {
    setOwnHeadersUnlessSet(res, id, rateLimit) {
      for (const [name, value] of ownHeaders(id, rateLimit)) if (!res.hasHeader(name)) res.setHeader(name, value);
    },
    proxiedHead(id, rawHeaders, rateLimit) {
      const head: string[] = [];
      const sent = new Set<string>();
      for (let index = 0; index < rawHeaders.length; index += 2) {
        const name = rawHeaders[index].toLowerCase();
        if (!passesFromService(name) || OF_ONE_CONNECTION.has(name)) continue;
        sent.add(name);
        head.push(rawHeaders[index], rawHeaders[index + 1]);
      }
      addUnlessSent(head, sent, 'X-Request-Id', id);
      for (const [name, value] of fixedHeaders) addUnlessSent(head, sent, name, value);
      for (const [name, value] of rateLimit) addUnlessSent(head, sent, name, value);
      return head;
    },
    gatewayHeadersBeside: (id, entryHeaders, rateLimit) => [['X-Request-Id', id], ...fixedHeadersBeside(entryHeaders), ...rateLimit],
    // Every other answer has its CORS headers among the fixed ones.
    preflight: (req, res, next) => (req.method === 'OPTIONS' ? corsPolicy(req, res, next) : next()),
  };
}
