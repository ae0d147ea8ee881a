import { finalHistory, generateDemoLedger } from '@ledger-api/demo-ledger';
import type { LedgerEvent } from '@ledger-api/ledger';
import type { TestArea, TestResponse } from '@ledger-api/runtime/testing';
import fc from 'fast-check';
import { startNftBase } from './testing/gallery';

/**
 * Reads at a past height against fresh replays: for random ledgers with
 * reverts, every read at a height inside the windows answers byte for byte
 * what an area that only ever followed the chain up to that height answers
 * at its head, links aside (those keep the `height` the request sent).
 */
const LISTS = ['/nft/assets', '/nft/collections', '/nft/burns', '/nft/transfers'];

/** The ledger's blocks, then reverts of its newest `reverts` blocks. */
function ledgerWithReverts(seed: number, reverts: number): LedgerEvent[] {
  const events = generateDemoLedger({ seed, blockCount: 50 });
  const chain = finalHistory(events);
  const undone = chain.slice(chain.length - reverts).reverse();
  return [...events, ...undone.map((block): LedgerEvent => ({ event: 'block.reverted', block: { id: block.id, height: block.height } }))];
}

/** What a client sees of an answer: status, block headers and the body as sent, `height` taken out of its links. */
function seen({ status, headers, body }: TestResponse, height?: number) {
  const text = JSON.stringify(body);
  const links = height === undefined ? text : text.replaceAll(`&height=${height}`, '').replaceAll(`height=${height}&`, '');
  return { status, block: [headers['x-block-height'], headers['x-block-id']], body: links };
}

/** The same request to both areas, the past one at `height`. */
async function expectSameAnswer(past: TestArea, fresh: TestArea, height: number, method: 'GET' | 'POST', path: string, body?: unknown) {
  const separator = path.includes('?') ? '&' : '?';
  const atHeight = await past.request(method, `${path}${separator}height=${height}`, body);
  const atHead = await fresh.request(method, path, body);
  expect({ path, ...seen(atHeight, height) }).toEqual({ path, ...seen(atHead) });
  return atHead;
}

/** Page paging, a cursor walk both ways, by id and batch reads of the records listed. */
async function expectSameReads(past: TestArea, fresh: TestArea, height: number) {
  for (const list of LISTS) {
    const first = await expectSameAnswer(past, fresh, height, 'GET', `${list}?limit=5&orderBy=timestamp:desc`);
    await expectSameAnswer(past, fresh, height, 'GET', `${list}?limit=5&page=2`);
    let page = await expectSameAnswer(past, fresh, height, 'GET', `${list}?limit=7&cursor=`);
    for (let step = 0; step < 3 && page.body.meta.next; step++) page = await expectSameAnswer(past, fresh, height, 'GET', page.body.meta.next);
    await expectSameAnswer(past, fresh, height, 'GET', `${list}?limit=7&cursor=${encodeURIComponent(lastCursor(page.body.meta.last))}`);
    const ids: string[] = first.body.data.map((item: { id: string }) => item.id);
    for (const id of ids.slice(0, 3)) await expectSameAnswer(past, fresh, height, 'GET', `${list}/${id}`);
    await expectSameAnswer(past, fresh, height, 'POST', `${list}/batch`, { ids: [...ids, 'f'.repeat(64)] });
  }
}

const lastCursor = (link: string) => new URL(link, 'http://link.test').searchParams.get('cursor') ?? '';

describe('reads at a past height', () => {
  it('answer what a fresh replay of the followed chain up to that height answers at its head', async () => {
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 1, max: 1000 }), fc.nat(3), fc.nat(), async (seed, reverts, pick) => {
        const events = ledgerWithReverts(seed, reverts);
        const chain = finalHistory(events);
        const height = chain.length - (pick % 40);
        const past = await startNftBase(events);
        const fresh = await startNftBase(chain.slice(0, height).map((block): LedgerEvent => ({ event: 'block.applied', block })));
        try {
          await expectSameReads(past, fresh, height);
        } finally {
          await Promise.all([past.close(), fresh.close()]);
        }
      }),
      { numRuns: 8 },
    );
  }, 300_000);
});
