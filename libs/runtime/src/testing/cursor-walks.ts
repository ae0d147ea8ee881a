import type { Paged } from '@ledger-api/http';
import type { TestArea } from './types';

/** A paged list or search of an area, as a client calls it. */
export interface PagedRoute {
  method: 'GET' | 'POST';
  /** Path without query, e.g. `/nft/assets` or `/nft/assets/wallet/<key>`. */
  path: string;
  /** The search body of a POST route, sent again with every page. */
  body?: unknown;
  /** Query parameters the list is read with besides paging, e.g. `transform=false`. */
  query?: string;
}

/** A page as the list answers it. */
type PageAnswer = Paged<unknown>;

/** More pages than the list has means a walk that never ends. */
const WALK_SLACK = 2;

async function pageAt(area: TestArea, route: PagedRoute, link: string): Promise<PageAnswer> {
  const { status, body } = await area.request(route.method, link, route.body);
  if (status !== 200) throw new Error(`${route.method} ${link} answered ${status}: ${JSON.stringify(body)}`);
  return body as PageAnswer;
}

/** Every page of page paging, from page 1 to the last. */
async function numberedPages(area: TestArea, route: PagedRoute, query: string): Promise<PageAnswer[]> {
  const pages = [await pageAt(area, route, `${route.path}?${query}&page=1`)];
  for (let page = 2; page <= pages[0].meta.pageCount; page++) pages.push(await pageAt(area, route, `${route.path}?${query}&page=${page}`));
  return pages;
}

/** The pages met following the `way` links from `start`, each one reached by a link checked to answer as that link. */
async function walk(area: TestArea, route: PagedRoute, start: string, way: 'next' | 'previous', pageCount: number): Promise<PageAnswer[]> {
  const pages: PageAnswer[] = [];
  for (let link: string | null = start; link; link = pages[pages.length - 1].meta[way]) {
    if (pages.length > pageCount + WALK_SLACK) throw new Error(`${route.path}: the ${way} links go on past ${pageCount} pages`);
    const page = await pageAt(area, route, link);
    if (pages.length > 0) expect(page.meta.self).toBe(link);
    pages.push(page);
  }
  return pages;
}

/** The cursor a link carries. */
export const cursorOf = (link: string) => new URL(link, 'http://link.test').searchParams.get('cursor');

/**
 * Keyset paging of one list in one order: walking `next` from `cursor=`
 * gives exactly the pages of page paging, with the same counts; walking
 * `previous` from `last` gives them again in reverse order.
 */
export async function expectCursorWalksMatchPages(area: TestArea, route: PagedRoute, query: string): Promise<void> {
  const base = [route.query, query].filter(Boolean).join('&');
  const numbered = await numberedPages(area, route, base);
  const { pageCount, totalCount } = numbered[0].meta;
  const forward = await walk(area, route, `${route.path}?${base}&cursor=`, 'next', pageCount);
  expect(forward.map((page) => page.data)).toEqual(numbered.map((page) => page.data));
  for (const page of forward) expect(page.meta).toMatchObject({ pageCount, totalCount, first: forward[0].meta.self, last: forward[0].meta.last });
  expect(forward[0].meta.previous).toBeNull();
  const backward = await walk(area, route, forward[0].meta.last, 'previous', pageCount);
  expect(backward.map((page) => page.data)).toEqual(numbered.map((page) => page.data).reverse());
  expect(backward[0].meta.next).toBeNull();
}

/** The 422 message of each way a cursor can be refused: malformed, made for another order or list (`foreignCursor`), or beside `page`/`offset`. */
export async function expectCursorRefusals(area: TestArea, route: PagedRoute, foreignCursor: string): Promise<void> {
  const base = route.query ? `${route.path}?${route.query}&` : `${route.path}?`;
  const refusals: [string, string][] = [
    [`${base}cursor=not-a-cursor`, '"cursor" is invalid'],
    [`${base}cursor=${encodeURIComponent(foreignCursor)}`, '"cursor" is invalid'],
    [`${base}cursor=&page=1`, '"page" is not allowed with "cursor"'],
    [`${base}offset=0&cursor=`, '"offset" is not allowed with "cursor"'],
  ];
  for (const [link, message] of refusals) {
    const { status, body } = await area.request(route.method, link, route.body);
    expect({ link, status, message: body?.message }).toEqual({ link, status: 422, message });
  }
}
