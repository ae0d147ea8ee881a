import { waitFor } from '@ledger-api/test-kit';
import { exampleRequests, type ExampleRequest } from '../support/example-requests';
import { requestBytes, type BytesAnswer } from '../support/http-bytes';
import { startLocalStack, type LocalStack } from '../support/local-stack';
import { freeAddress, isReady, startProcess, type RunningProcess } from '../support/processes';

/**
 * The edge cache changes where an answer comes from, never what it is: the same recorded
 * requests, sent through a gateway that answers from its edge cache and through one that
 * proxies everything (EDGE_CACHE_MB=0) in front of the same services, get answers equal in
 * status, headers and body bytes, but for Date and X-Request-Id.
 */
const VARYING_HEADERS = new Set(['date', 'x-request-id']);

let stack: LocalStack;
let proxying: { url: string; process: RunningProcess };
let examples: ExampleRequest[];

beforeAll(async () => {
  stack = await startLocalStack({ blocks: 120, env: { RATE_LIMIT_PER_MINUTE: '0' } });
  const address = await freeAddress();
  const process = startProcess('gateway/dist/index.js', { ...stack.services, ...address.env, EDGE_CACHE_MB: '0', RATE_LIMIT_PER_MINUTE: '0' });
  proxying = { url: address.url, process };
  await waitFor(() => isReady(address.adminUrl), 'the proxying gateway', 30_000, 100);
  // The gateway proxies an area until its commit feed is live; a feed that found its service not yet listening tries again shortly.
  await waitFor(feedsLive, 'every area’s commit feed at the edge gateway', 30_000, 100);
  examples = await exampleRequests(stack.gateway);
}, 180_000);

afterAll(async () => {
  await proxying?.process.stop();
  await stack?.stop();
}, 60_000);

/** Every way a client asks for the same page: plain, each coding, HEAD, and a conditional GET with the page's ETag. */
interface Variant {
  name: string;
  method: string;
  headers: Record<string, string>;
}

async function variantsOf(example: ExampleRequest): Promise<Variant[]> {
  const variants: Variant[] = [
    { name: 'plain', method: example.method, headers: {} },
    { name: 'br', method: example.method, headers: { 'accept-encoding': 'br' } },
    { name: 'gzip', method: example.method, headers: { 'accept-encoding': 'gzip, deflate' } },
    { name: 'browser', method: example.method, headers: { 'accept-encoding': 'gzip, deflate, br', origin: 'https://example.org' } },
  ];
  if (example.method === 'POST') return variants;
  const { headers } = await requestBytes(`${proxying.url}${example.path}`, { headers: { 'accept-encoding': 'br' } });
  return [
    ...variants,
    { name: 'HEAD', method: 'HEAD', headers: {} },
    { name: 'If-None-Match', method: 'GET', headers: { 'accept-encoding': 'br', 'if-none-match': String(headers.etag) } },
  ];
}

function ask(base: string, example: ExampleRequest, method: string, headers: Record<string, string>): Promise<BytesAnswer> {
  return requestBytes(`${base}${example.path}`, {
    method,
    headers: { ...example.request.headers, ...headers },
    body: method === 'HEAD' ? undefined : example.request.body,
  });
}

function differences(name: string, edge: BytesAnswer, proxied: BytesAnswer): string[] {
  const found: string[] = [];
  if (edge.status !== proxied.status) found.push(`${name}: status ${edge.status} at the edge, ${proxied.status} proxied`);
  if (!edge.body.equals(proxied.body)) found.push(`${name}: the bodies differ`);
  const names = new Set([...Object.keys(edge.headers), ...Object.keys(proxied.headers)].filter((header) => !VARYING_HEADERS.has(header)));
  for (const header of names) {
    const [atEdge, whenProxied] = [edge.headers[header], proxied.headers[header]];
    if (String(atEdge) !== String(whenProxied)) found.push(`${name}: ${header} is ${atEdge} at the edge, ${whenProxied} proxied`);
  }
  return found;
}

async function feedsLive(): Promise<boolean> {
  const text = await (await fetch(`${stack.gatewayAdmin}/metrics`)).text();
  const states = [...text.matchAll(/^edge_feed_state\{[^}]*\} (\d+)/gm)].map(([, state]) => Number(state));
  return states.length === 3 && states.every((state) => state === 2);
}

async function edgeHits(): Promise<number> {
  const text = await (await fetch(`${stack.gatewayAdmin}/metrics`)).text();
  return [...text.matchAll(/^edge_cache_requests_total\{[^}]*result="hit"[^}]*\} (\d+)/gm)].reduce((sum, [, count]) => sum + Number(count), 0);
}

it('answers every recorded request at the edge exactly as the service answers it through a proxying gateway', async () => {
  const found: string[] = [];
  let areaRequests = 0;
  const hitsBefore = await edgeHits();
  for (const example of examples) {
    const ofArea = example.path.startsWith('/api/') && example.path !== '/api/openapi.json';
    for (const variant of await variantsOf(example)) {
      const name = `${example.name} (${variant.name})`;
      // The first request may be proxied and kept; the second is the one answered at the edge.
      await ask(stack.gateway, example, variant.method, variant.headers);
      const edge = await ask(stack.gateway, example, variant.method, variant.headers);
      const proxied = await ask(proxying.url, example, variant.method, variant.headers);
      found.push(...differences(name, edge, proxied));
      if (ofArea) areaRequests += 1;
    }
  }
  expect(found).toEqual([]);
  // The API document is the gateway's own; every second request to an area was an edge answer
  // (and some first ones too: a browser's request is answered in br, as a br request was just before).
  expect(areaRequests).toBeGreaterThan(100);
  expect((await edgeHits()) - hitsBefore).toBeGreaterThanOrEqual(areaRequests);
}, 300_000);
