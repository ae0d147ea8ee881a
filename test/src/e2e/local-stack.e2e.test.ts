import { join } from 'node:path';
import { brotliDecompressSync } from 'node:zlib';
import type { LedgerEvent, Transaction } from '@ledger-api/ledger';
import { generateDemoLedger } from '@ledger-api/demo-ledger';
import { areaPortVariables, freeAreaAddresses, type AreaAddresses } from '../support/areas';
import { requestBytes } from '../support/http-bytes';
import { AREAS } from '@ledger-api/config';
import { launchedPid } from '../support/local-stack';
import {
  freeAddress,
  getJson,
  isReady,
  runningAs,
  RUNNABLE,
  RUNNABLE_NODE_OPTIONS,
  startProcess,
  type ProcessAddress,
  type RunningProcess,
} from '../support/processes';
import { waitFor } from '@ledger-api/test-kit';
import { tempDir, topBlock, writeEvents } from '../support/ledger-files';

/** `npm start` with LEDGER_FILE: the launcher, three services and the gateway as real processes. */
let stack: RunningProcess;
let api: string;
let addresses: AreaAddresses & { gateway: ProcessAddress };
let events: LedgerEvent[];

function finalTransactions(): Transaction[] {
  const chain: Transaction[][] = [];
  for (const event of events) {
    if (event.event === 'block.applied') chain.push(event.block.transactions);
    else chain.pop();
  }
  return chain.flat();
}

const countOf = (typeGroup: number, type: number) => finalTransactions().filter((tx) => tx.typeGroup === typeGroup && tx.type === type).length;

beforeAll(async () => {
  events = generateDemoLedger({ seed: 7 });
  const file = writeEvents(join(tempDir('stack'), 'ledger.jsonl'), events);
  const [gateway, areas] = await Promise.all([freeAddress(), freeAreaAddresses()]);
  addresses = { gateway, ...areas };
  stack = startProcess('tools/local-stack/dist/launcher.js', {
    LEDGER_FILE: file,
    ...gateway.env,
    ...areaPortVariables(areas),
  });
  api = gateway.url;
  await waitFor(() => isReady(gateway.adminUrl), 'the stack to be ready', 120_000, 200);
}, 150_000);

afterAll(async () => {
  expect(await stack.stop()).toBe(0);
});

describe('the local stack behind the gateway', () => {
  it('runs every process from the runnable output the image ships, under the Node.js options the image runs it with', () => {
    const children = [...AREAS.map((area) => ({ name: area.name, entry: area.entry })), { name: 'gateway' as const, entry: 'gateway/dist/index.js' }];
    const processes = [
      { pid: stack.child.pid!, entry: 'tools/local-stack/dist/launcher.js' },
      ...children.map(({ name, entry }) => ({ pid: launchedPid(stack.output(), name), entry })),
    ];
    for (const { pid, entry } of processes) {
      expect(runningAs(pid)).toEqual({ script: join(RUNNABLE, entry), nodeOptions: RUNNABLE_NODE_OPTIONS });
    }
  });

  it('serves probes and metrics on the admin port of every process, and neither readiness nor metrics on a public one', async () => {
    for (const [name, { url, adminUrl }] of Object.entries(addresses)) {
      expect([name, (await fetch(`${adminUrl}/livez`)).status]).toEqual([name, 200]);
      expect([name, (await fetch(`${adminUrl}/readyz`)).status]).toEqual([name, 200]);
      expect(await (await fetch(`${adminUrl}/metrics`)).text()).toContain(`process_cpu_seconds_total{service="${name}"}`);
      for (const path of ['/readyz', '/metrics']) expect([name, path, (await fetch(`${url}${path}`)).status]).toEqual([name, path, 404]);
    }
    // Only the gateway keeps a liveness check on its public port, for load balancers that check the port they send to.
    expect((await fetch(`${addresses.gateway.url}/livez`)).status).toBe(200);
    expect((await fetch(`${addresses.guardian.url}/livez`)).status).toBe(404);
    expect(await (await fetch(`${addresses.gateway.adminUrl}/readyz`)).json()).toEqual({
      status: 'ready',
      ready: true,
      services: { guardian: 'ready', 'nft-base': 'ready', 'nft-exchange': 'ready' },
      feeds: { guardian: 'live', 'nft-base': 'live', 'nft-exchange': 'live' },
    });
  });

  it('answers every area from the replayed ledger at its top height', async () => {
    const height = String(topBlock(events).height);
    const groups = await getJson(`${api}/api/guardian/groups`);
    const names = new Set(
      finalTransactions()
        .filter((tx) => tx.typeGroup === 9002 && tx.type === 1)
        .map((tx) => tx.asset?.setGroupPermissions.name),
    );
    expect(groups.body.meta.totalCount).toBe(names.size);
    expect(groups.headers.get('x-block-height')).toBe(height);

    const collections = await getJson(`${api}/api/nft/collections?limit=5`);
    expect(collections.body.meta).toMatchObject({ totalCountIsEstimate: true, totalCount: countOf(9000, 0) });
    expect(collections.body.meta.self).toBe('/nft/collections?limit=5&transform=true&page=1');
    expect(collections.headers.get('x-block-height')).toBe(height);

    const trades = await getJson(`${api}/api/nft/exchange/trades`);
    expect(trades.body.meta.totalCount).toBe(countOf(9001, 4));
    expect(trades.headers.get('x-block-height')).toBe(height);
  });

  it('passes search bodies through to the service', async () => {
    const response = await fetch(`${api}/api/nft/assets/search?limit=1`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({}),
    });
    expect(response.status).toBe(200);
    const page = (await response.json()) as { meta: { totalCount: number } };
    expect(page.meta.totalCount).toBe(countOf(9000, 1));
  });

  it('passes batch lookups through to the services, each entry as its by-id route answers it', async () => {
    const batch = (path: string, body: unknown) =>
      fetch(`${api}/api${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
    const byId = async (path: string) => {
      const { status, body } = await getJson(`${api}/api${path}`);
      return status === 200 ? body.data : null;
    };
    const unknown = 'f'.repeat(64);
    const assetIds = ((await getJson(`${api}/api/nft/assets?limit=3`)).body.data as { id: string }[]).map((asset) => asset.id);
    const tradeIds = ((await getJson(`${api}/api/nft/exchange/trades?limit=2`)).body.data as { id: string }[]).map((trade) => trade.id);
    const lookups: [string, string, string[]][] = [
      ['/nft/assets/batch', '/nft/assets/', [assetIds[2], unknown, assetIds[0].toUpperCase(), assetIds[2]]],
      ['/nft/exchange/trades/batch?transform=false', '/nft/exchange/trades/', [...tradeIds, unknown]],
    ];
    for (const [path, byIdPath, ids] of lookups) {
      const response = await batch(path, { ids });
      expect(response.status).toBe(200);
      expect(response.headers.get('x-block-height')).toBe(String(topBlock(events).height));
      const query = path.includes('?') ? path.slice(path.indexOf('?')) : '';
      expect(await response.json()).toEqual({ data: await Promise.all(ids.map((id) => byId(`${byIdPath}${id}${query}`))) });
    }
    const refused = await batch('/nft/exchange/bids/batch', { ids: [...assetIds, 'xyz'] });
    expect(refused.status).toBe(422);
    expect(await refused.json()).toEqual({
      statusCode: 422,
      error: 'Unprocessable Entity',
      message: '"ids[3]" must only contain hexadecimal characters',
    });
  });

  it('serves one OpenAPI document for all areas', async () => {
    const { body } = await getJson(`${api}/api/openapi.json`);
    expect(body.openapi).toMatch(/^3\.1/);
    expect(Object.keys(body.paths)).toEqual(
      expect.arrayContaining(['/api/guardian/groups', '/api/nft/collections', '/api/nft/assets/wallet/{id}', '/api/nft/exchange/auctions']),
    );
  });

  it('answers errors in the error body format with a request id', async () => {
    const missing = await fetch(`${api}/api/nothing-here`, { headers: { 'x-request-id': 'e2e-check-1' } });
    expect(missing.status).toBe(404);
    expect(missing.headers.get('x-request-id')).toBe('e2e-check-1');
    expect(await missing.json()).toEqual({ statusCode: 404, error: 'Not Found', message: 'Not Found' });
    const invalid = await getJson(`${api}/api/guardian/groups?limit=0`);
    expect(invalid.body).toEqual({ statusCode: 422, error: 'Unprocessable Entity', message: '"limit" must be greater than or equal to 1' });
  });

  it('sends a page over 1 KB compressed, made by the service and passed on by the gateway as it is', async () => {
    const url = `${api}/api/nft/assets?limit=100`;
    const plain = await requestBytes(url);
    const encoded = await requestBytes(url, { headers: { 'accept-encoding': 'gzip, deflate, br' } });
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(encoded.headers).toMatchObject({ 'content-encoding': 'br', 'content-length': String(encoded.body.length), vary: 'Accept-Encoding' });
    expect(brotliDecompressSync(encoded.body).equals(plain.body)).toBe(true);
    expect(encoded.body.length).toBeLessThan(plain.body.length / 4);
    expect(encoded.headers.etag).not.toBe(plain.headers.etag);
    const unchanged = await requestBytes(url, { headers: { 'accept-encoding': 'br', 'if-none-match': encoded.headers.etag! } });
    expect(unchanged.status).toBe(304);
  });

  it('leaves error bodies plain whatever the client accepts', async () => {
    const invalid = await requestBytes(`${api}/api/nft/assets?limit=0`, { headers: { 'accept-encoding': 'br, gzip' } });
    expect(invalid.status).toBe(422);
    expect(invalid.headers['content-encoding']).toBeUndefined();
    expect(JSON.parse(invalid.body.toString())).toMatchObject({ statusCode: 422 });
  });
});
