import { finalHistory, generateDemoLedger, revertsOfNewest } from '@ledger-api/demo-ledger';
import type { LedgerEvent } from '@ledger-api/ledger';
import fc from 'fast-check';
import type { TestArea, TestResponse } from './types';

/**
 * Reads at a past height against a fresh replay: `past` follows a ledger,
 * `fresh` only ever followed its chain up to `height`. Every read at that
 * height must answer byte for byte what the fresh area answers at its head,
 * links aside (those keep the `height` the request sent).
 */

/** A list with by-id and batch routes below it (`<path>/{id}`, `<path>/batch`). */
export interface RecordList {
  path: string;
  batch: boolean;
}

/** What a client sees of an answer: status, block headers and the body as sent, `height` taken out of its links. */
function seen({ status, headers, body }: TestResponse, height?: number) {
  const text = JSON.stringify(body);
  const links = height === undefined ? text : text.replaceAll(`&height=${height}`, '').replaceAll(`height=${height}&`, '');
  return { status, block: [headers['x-block-height'], headers['x-block-id']], body: links };
}

/** The same request to both areas, the past one at `height`; the fresh answer. */
async function expectSameAnswer(past: TestArea, fresh: TestArea, height: number, method: 'GET' | 'POST', path: string, body?: unknown) {
  const separator = path.includes('?') ? '&' : '?';
  const atHeight = await past.request(method, `${path}${separator}height=${height}`, body);
  const atHead = await fresh.request(method, path, body);
  expect({ path, ...seen(atHeight, height) }).toEqual({ path, ...seen(atHead) });
  return atHead;
}

const cursorOfLink = (link: string) => new URL(link, 'http://link.test').searchParams.get('cursor') ?? '';

/** Page paging, a cursor walk forwards and from the end, and by-id and batch reads of the records listed. */
export async function expectPastReadsMatchFreshReplay(past: TestArea, fresh: TestArea, height: number, lists: RecordList[]): Promise<void> {
  for (const { path, batch } of lists) {
    const first = await expectSameAnswer(past, fresh, height, 'GET', `${path}?limit=5&orderBy=timestamp:desc`);
    await expectSameAnswer(past, fresh, height, 'GET', `${path}?limit=5&page=2`);
    let page = await expectSameAnswer(past, fresh, height, 'GET', `${path}?limit=7&cursor=`);
    for (let step = 0; step < 3 && page.body.meta.next; step++) page = await expectSameAnswer(past, fresh, height, 'GET', page.body.meta.next);
    await expectSameAnswer(past, fresh, height, 'GET', `${path}?limit=7&cursor=${encodeURIComponent(cursorOfLink(page.body.meta.last))}`);
    const ids: string[] = (first.body.data ?? []).map((item: { id: string }) => item.id);
    for (const id of ids.slice(0, 3)) await expectSameAnswer(past, fresh, height, 'GET', `${path}/${id}`);
    if (batch) await expectSameAnswer(past, fresh, height, 'POST', `${path}/batch`, { ids: [...ids, 'f'.repeat(64)] });
  }
}

/**
 * The property every area's history keeps: on random demo ledgers with reverts, at a random height
 * within the list window, every read of `lists` answers what a fresh replay up to that height does.
 */
export async function checkPastReadsAgainstFreshReplays(start: (events: LedgerEvent[]) => Promise<TestArea>, lists: RecordList[]): Promise<void> {
  await fc.assert(
    fc.asyncProperty(fc.integer({ min: 1, max: 1000 }), fc.nat(3), fc.nat(), async (seed, reverts, pick) => {
      const ledger = generateDemoLedger({ seed, blockCount: 50 });
      const events = [...ledger, ...revertsOfNewest(ledger, reverts)];
      const chain = finalHistory(events);
      const height = chain.length - (pick % 40);
      const past = await start(events);
      const fresh = await start(chain.slice(0, height).map((block): LedgerEvent => ({ event: 'block.applied', block })));
      try {
        await expectPastReadsMatchFreshReplay(past, fresh, height, lists);
      } finally {
        await Promise.all([past.close(), fresh.close()]);
      }
    }),
    { numRuns: 8 },
  );
}
