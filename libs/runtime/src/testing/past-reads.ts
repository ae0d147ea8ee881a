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
