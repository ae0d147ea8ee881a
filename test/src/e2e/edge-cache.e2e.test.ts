import { AREAS } from '@ledger-api/config';
import { waitFor } from '@ledger-api/test-kit';
import { exampleRequests, type ExampleRequest } from '../support/example-requests';
import { requestBytes, type BytesAnswer } from '../support/http-bytes';
import { startLocalStack, type LocalStack } from '../support/local-stack';
import { counted } from '../support/metrics';
import { freeAddress, isReady, startProcess, type RunningProcess } from '../support/processes';

/**
 * The edge cache changes where an answer comes from, never what it is: the same recorded
 * requests, sent through a gateway that answers from its edge cache and through one that
 * proxies everything (EDGE_CACHE_MB=0) in front of the same services, get answers equal in
 * status, headers and body bytes, but for Date and X-Request-Id. Every answer is kept at the
 * edge but a batch lookup's, which neither the edge nor a service's page cache ever keeps.
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

const edgeHits = () => counted(stack.gatewayAdmin, 'edge_cache_requests_total', 'result="hit"');

/** Lookups in the page caches of all three services: those of the result `labels` names, or all. */
async function pageCacheLookups(labels = ''): Promise<number> {
  const counts = await Promise.all(AREAS.map((area) => counted(stack.services[area.adminUrlVariable], 'page_cache_requests_total', labels)));
  return counts.reduce((sum, count) => sum + count, 0);
}

/** A batch lookup (docs/behaviour.md section 10): each client asks for its own set of ids. */
const isBatch = (example: ExampleRequest) => example.method === 'POST' && example.path.split('?')[0].endsWith('/batch');

it('answers every recorded request at the edge exactly as the service answers it through a proxying gateway', async () => {
  const found: string[] = [];
  let keptRequests = 0;
  const hitsBefore = await edgeHits();
  for (const example of examples) {
    const kept = example.path.startsWith('/api/') && example.path !== '/api/openapi.json' && !isBatch(example);
    for (const variant of await variantsOf(example)) {
      const name = `${example.name} (${variant.name})`;
      // The first request may be proxied and kept; the second is the one answered at the edge.
      await ask(stack.gateway, example, variant.method, variant.headers);
      const edge = await ask(stack.gateway, example, variant.method, variant.headers);
      const proxied = await ask(proxying.url, example, variant.method, variant.headers);
      found.push(...differences(name, edge, proxied));
      if (kept) keptRequests += 1;
    }
  }
  expect(found).toEqual([]);
  // The API document is the gateway's own; every second request to an area but a batch was an edge
  // answer (and some first ones too: a browser's request is answered in br, as a br request was just before).
  expect(keptRequests).toBeGreaterThan(100);
  expect((await edgeHits()) - hitsBefore).toBeGreaterThanOrEqual(keptRequests);
}, 300_000);

it('keeps no batch answer at the edge nor in a service page cache, and every search page at the edge', async () => {
  const batches = examples.filter(isBatch);
  const searches = examples.filter((example) => example.method === 'POST' && !isBatch(example));
  expect(batches.length).toBeGreaterThan(0);
  expect(searches.length).toBeGreaterThan(0);
  const kept: string[] = [];
  for (const example of batches) {
    const [hits, lookups] = [await edgeHits(), await pageCacheLookups()];
    for (let time = 0; time < 2; time += 1) expect((await ask(stack.gateway, example, 'POST', {})).status).toBe(200);
    if ((await edgeHits()) !== hits) kept.push(`${example.name}: answered at the edge`);
    if ((await pageCacheLookups()) !== lookups) kept.push(`${example.name}: looked up in the page cache`);
  }
  expect(kept).toEqual([]);
  const notKept: string[] = [];
  for (const example of searches) {
    await ask(stack.gateway, example, 'POST', {});
    const [hits, pageHits] = [await edgeHits(), await pageCacheLookups('result="hit"')];
    await ask(stack.gateway, example, 'POST', {});
    if ((await edgeHits()) !== hits + 1) notKept.push(`${example.name}: not answered at the edge`);
    // Past the edge, a search page is found in the service's page cache.
    await ask(proxying.url, example, 'POST', {});
    if ((await pageCacheLookups('result="hit"')) !== pageHits + 1) notKept.push(`${example.name}: not found in the page cache`);
  }
  expect(notKept).toEqual([]);
}, 120_000);
