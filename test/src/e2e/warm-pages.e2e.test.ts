import type { AreaName } from '@ledger-api/config';
import { waitFor } from '@ledger-api/test-kit';
import { startJetStreamStack, type JetStreamStack } from '../bench/jetstream-stack';
import { counted } from '../support/metrics';

/**
 * Pages stay warm across blocks that do not change their area, on the whole stack (the three
 * services projecting a ledger on JetStream, a gateway with its edge cache): a one-group
 * Guardian block, and its revert, change the guardian area only. The NFT areas' pages are
 * answered at the edge and found in their services' page caches across both, with the new
 * block's X-Block-Height and X-Block-Id and otherwise as before; the guardian's are rendered again.
 */

let stack: JetStreamStack;

beforeAll(async () => {
  stack = await startJetStreamStack({ blocks: 60, logLevel: 'warn', gatewayEnv: {} });
}, 180_000);

afterAll(async () => {
  await stack?.stop();
}, 60_000);

const PAGES: Record<AreaName, string> = {
  guardian: '/guardian/groups?limit=5',
  'nft-base': '/nft/collections?limit=5',
  'nft-exchange': '/nft/exchange/auctions?limit=5',
};

interface Answer {
  height: string | null;
  blockId: string | null;
  etag: string | null;
  body: string;
}

async function read(url: string): Promise<Answer> {
  const response = await fetch(url);
  const header = (name: string) => response.headers.get(name);
  return { height: header('x-block-height'), blockId: header('x-block-id'), etag: header('etag'), body: await response.text() };
}

const throughGateway = (area: AreaName) => read(`${stack.gateway}/api${PAGES[area]}`);
const fromService = (area: AreaName) => read(`${stack.services[area]}${PAGES[area]}`);

/** What the edge and the area's page cache did so far: the edge's misses, and the page cache's hits. */
async function cacheCounts(area: AreaName) {
  return {
    edgeMisses: await counted(stack.admin.gateway, 'edge_cache_requests_total', `area="${area}",result="miss"`),
    pageCacheHits: await counted(stack.admin[area], 'page_cache_requests_total', 'result="hit"'),
  };
}

/** Publishes the event and waits for every area's page to show its height through the gateway. */
async function commitEverywhere(publish: () => Promise<{ heightAfter: number }>): Promise<number> {
  const { heightAfter } = await publish();
  for (const area of Object.keys(PAGES) as AreaName[]) {
    await waitFor(async () => (await throughGateway(area)).height === String(heightAfter), `${area} at height ${heightAfter}`, 20_000, 20);
  }
  return heightAfter;
}

it('keeps the NFT areas’ pages across a Guardian block and its revert, at the edge and in the page caches, and renders the guardian’s again', async () => {
  const areas = Object.keys(PAGES) as AreaName[];
  // The NFT read model learns a wallet's public key with the first transaction it signs: the first block changes every area.
  await commitEverywhere(() => stack.publisher.apply());
  // Kept at the edge (the second read is a hit) and in each service's page cache (read directly).
  for (const area of areas) for (let time = 0; time < 2; time += 1) await Promise.all([throughGateway(area), fromService(area)]);
  const before = Object.fromEntries(await Promise.all(areas.map(async (area) => [area, await throughGateway(area)] as const)));

  for (const publish of [() => stack.publisher.apply(), () => stack.publisher.revert()]) {
    const counts = Object.fromEntries(await Promise.all(areas.map(async (area) => [area, await cacheCounts(area)] as const)));
    const height = await commitEverywhere(publish);
    for (const area of ['nft-base', 'nft-exchange'] as const) {
      const [atEdge, atService] = [await throughGateway(area), await fromService(area)];
      expect(atEdge).toEqual({ ...before[area], height: String(height), blockId: atService.blockId });
      expect(atService).toEqual(atEdge);
      const after = await cacheCounts(area);
      expect([area, after.edgeMisses]).toEqual([area, counts[area].edgeMisses]);
      expect(after.pageCacheHits).toBe(counts[area].pageCacheHits + 1);
    }
    // The guardian's page was rendered anew: the first read of it after the block was proxied.
    const guardian = await cacheCounts('guardian');
    expect(guardian.edgeMisses).toBeGreaterThan(counts.guardian.edgeMisses);
  }
});
