import { startTestArea, type TestArea } from '@ledger-api/runtime/testing';
import { testPublicKey } from '@ledger-api/ledger/testing';
import { guardianArea } from './service';
import { GuardianLedger } from './testing/guardian-ledger';

const alice = testPublicKey('alice');
const group = (name: string, priority: number) => ({ name, priority, active: true, default: false });

/** Block 1: group a; block 2: group b and alice in a; block 3: a at priority 3; block 4 (then reverted): group c. */
async function areaWithHistory(options: { historyBlocks?: number; listHistoryBlocks?: number; finalityDepth?: number } = {}) {
  const ledger = new GuardianLedger();
  const blocks = [
    ledger.block([ledger.setGroup(group('a', 1))]),
    ledger.block([ledger.setGroup(group('b', 2)), ledger.setUser({ publicKey: alice, groupNames: ['a'] })]),
    ledger.block([ledger.setGroup(group('a', 3))]),
  ];
  ledger.block([ledger.setGroup(group('c', 4))]);
  ledger.revert();
  const area = await startTestArea(guardianArea, ledger.take(), options);
  return { area, ledger, blocks };
}

let area: TestArea;
let blocks: Array<{ id: string }>;

beforeAll(async () => {
  ({ area, blocks } = await areaWithHistory());
});

afterAll(() => area.close());

describe('reads at a past height', () => {
  it('answers a by-id read as the area stood at that height, with its height and block id', async () => {
    const { status, body, headers } = await area.request('GET', '/guardian/groups/a?height=2');
    expect(status).toBe(200);
    expect(body.data).toMatchObject({ name: 'a', priority: 1 });
    expect([headers['x-block-height'], headers['x-block-id']]).toEqual(['2', blocks[1].id]);
    expect((await area.request('GET', '/guardian/groups/b?height=1')).status).toBe(404);
    expect((await area.request('GET', '/guardian/groups/a/users?height=1')).body.data).toEqual([]);
    expect((await area.request('GET', '/guardian/groups/a/users?height=2')).body.data).toHaveLength(1);
  });

  it('answers a list at that height with links that keep it', async () => {
    const { body, headers } = await area.request('GET', `/guardian/groups?orderBy=priority:desc&height=2&blockId=${blocks[1].id.toUpperCase()}`);
    expect(body.data.map((each: { name: string; priority: number }) => [each.name, each.priority])).toEqual([
      ['b', 2],
      ['a', 1],
    ]);
    expect(body.meta.self).toBe(`/guardian/groups?orderBy=priority%3Adesc&height=2&blockId=${blocks[1].id.toUpperCase()}&page=1&limit=100`);
    expect(headers['x-block-height']).toBe('2');
  });

  it('names the head block on head reads', async () => {
    const { headers } = await area.request('GET', '/guardian/groups');
    expect([headers['x-block-height'], headers['x-block-id']]).toEqual(['3', blocks[2].id]);
  });

  it('refuses a height not reached yet with 409, the head and Retry-After', async () => {
    const { status, body, headers } = await area.request('GET', '/guardian/groups/a?height=4');
    expect(status).toBe(409);
    expect(body).toEqual({ statusCode: 409, error: 'Conflict', message: 'height 4 is not yet available; the area is at height 3', head: 3 });
    expect(headers['retry-after']).toBe('1');
  });

  it('refuses a block id that is not at the height with 409 and the id that is', async () => {
    const other = 'ab'.repeat(32);
    const { status, body } = await area.request('GET', `/guardian/groups?height=2&blockId=${other}`);
    expect(status).toBe(409);
    expect(body).toEqual({ statusCode: 409, error: 'Conflict', message: `block ${other} is not at height 2`, blockId: blocks[1].id });
  });

  it('refuses a height below the window of the route with 410 and the earliest height', async () => {
    const narrow = await areaWithHistory({ listHistoryBlocks: 2 });
    try {
      const { status, body } = await narrow.area.request('GET', '/guardian/groups?height=1');
      expect(status).toBe(410);
      expect(body).toEqual({ statusCode: 410, error: 'Gone', message: 'height 1 is no longer available; the earliest is 2', earliestHeight: 2 });
      // Point reads reach further back.
      expect((await narrow.area.request('GET', '/guardian/groups/a?height=1')).status).toBe(200);
    } finally {
      await narrow.area.close();
    }
  });

  it.each([
    ['height=x', '"height" must be a number'],
    ['height=0', '"height" must be larger than or equal to 1'],
    ['height=1.5', '"height" must be an integer'],
    ['height=1&blockId=xyz', '"blockId" must only contain hexadecimal characters'],
    ['height=1&blockId=abc', '"blockId" length must be 64 characters long'],
    [`blockId=${'a'.repeat(64)}`, '"blockId" is not allowed without "height"'],
    ['height=1&minHeight=1', '"minHeight" is not allowed with "height"'],
  ])('refuses %s with 422 %s', async (query, message) => {
    for (const path of ['/guardian/groups', '/guardian/groups/a', '/guardian/groups/a/users']) {
      const { status, body } = await area.request('GET', `${path}?${query}`);
      expect({ path, status, body }).toEqual({ path, status: 422, body: { statusCode: 422, error: 'Unprocessable Entity', message } });
    }
  });

  it('takes none of the keys on configuration routes', async () => {
    const { status, body } = await area.request('GET', '/guardian/configurations?height=1');
    expect([status, body.message]).toEqual([422, '"height" is not allowed']);
  });
});

describe('a cursor walk', () => {
  const names = (body: { data: Array<{ name: string }> }) => body.data.map((each) => each.name);

  it('holds still at the height of its first page while blocks and a revert arrive', async () => {
    const ledger = new GuardianLedger();
    ledger.block(Array.from({ length: 40 }, (_, index) => ledger.setGroup(group(`g${String(index).padStart(2, '0')}`, index))));
    const walked = await startTestArea(guardianArea, ledger.take());
    try {
      const everything = await walked.request('GET', '/guardian/groups');
      let page = await walked.request('GET', '/guardian/groups?limit=2&cursor=');
      const seen = [...names(page.body)];
      for (let step = 1; step < 20; step++) {
        // Each step a block that adds a group before every other, renames one and drops one; every third is reverted.
        ledger.block([ledger.setGroup(group(`a${step}`, 100 + step)), ledger.setGroup(group(`g${String(step).padStart(2, '0')}`, 999))]);
        if (step % 3 === 0) ledger.revert();
        await walked.apply(ledger.take());
        page = await walked.request('GET', page.body.meta.next);
        expect([page.status, page.headers['x-block-height'], page.body.meta.totalCount]).toEqual([200, '1', 40]);
        seen.push(...names(page.body));
      }
      expect(page.body.meta.next).toBeNull();
      expect(seen).toEqual(names(everything.body));
    } finally {
      await walked.close();
    }
  });

  it('whose block was reverted is refused with 409 and the first page at the newest height', async () => {
    const ledger = new GuardianLedger();
    ledger.block([ledger.setGroup(group('a', 1)), ledger.setGroup(group('b', 2)), ledger.setGroup(group('c', 3))]);
    ledger.block([ledger.setGroup(group('d', 4))]);
    const walked = await startTestArea(guardianArea, ledger.take());
    try {
      const { body } = await walked.request('GET', '/guardian/groups?limit=2&cursor=');
      ledger.revert();
      ledger.block([ledger.setGroup(group('e', 5))]);
      await walked.apply(ledger.take());
      const refused = await walked.request('GET', body.meta.next);
      expect([refused.status, refused.body]).toEqual([
        409,
        {
          statusCode: 409,
          error: 'Conflict',
          message: 'the block this walk was reading at was reverted; start again from the first link',
          first: '/guardian/groups?limit=2&cursor=',
        },
      ]);
    } finally {
      await walked.close();
    }
  });

  it('older than the list window is refused with 410 and the first page', async () => {
    const ledger = new GuardianLedger();
    ledger.block([ledger.setGroup(group('a', 1)), ledger.setGroup(group('b', 2)), ledger.setGroup(group('c', 3))]);
    const walked = await startTestArea(guardianArea, ledger.take(), { listHistoryBlocks: 2 });
    try {
      const { body } = await walked.request('GET', '/guardian/groups?limit=2&cursor=');
      ledger.block([ledger.setGroup(group('d', 4))]);
      ledger.block([ledger.setGroup(group('e', 5))]);
      await walked.apply(ledger.take());
      const refused = await walked.request('GET', body.meta.next);
      expect([refused.status, refused.body]).toEqual([
        410,
        {
          statusCode: 410,
          error: 'Gone',
          message: 'height 1 is no longer available; the earliest is 2',
          earliestHeight: 2,
          first: '/guardian/groups?limit=2&cursor=',
        },
      ]);
    } finally {
      await walked.close();
    }
  });
});

describe('minHeight', () => {
  it('answers at the newest height once the area applied the block, waiting for it', async () => {
    const waited = await areaWithHistory();
    try {
      const now = await waited.area.request('GET', '/guardian/groups/a?minHeight=2');
      expect([now.status, now.headers['x-block-height'], now.body.data.priority]).toEqual([200, '3', 3]);
      const answer = waited.area.request('GET', '/guardian/groups/a?minHeight=4');
      const next = waited.ledger.block([waited.ledger.setGroup(group('a', 9))]);
      await waited.area.apply(waited.ledger.take());
      const { status, headers, body } = await answer;
      expect([status, headers['x-block-height'], headers['x-block-id'], body.data.priority]).toEqual([200, '4', next.id, 9]);
    } finally {
      await waited.area.close();
    }
  });

  it('leaves a cursor walk at its own height when that is minHeight or later, and refuses one pinned below it with 410', async () => {
    const ledger = new GuardianLedger();
    ledger.block([ledger.setGroup(group('a', 1)), ledger.setGroup(group('b', 2)), ledger.setGroup(group('c', 3))]);
    const walked = await startTestArea(guardianArea, ledger.take());
    try {
      const first = await walked.request('GET', '/guardian/groups?limit=2&minHeight=1&cursor=');
      expect([first.status, first.headers['x-block-height'], first.body.meta.totalCount]).toEqual([200, '1', 3]);
      ledger.block([ledger.setGroup(group('d', 4))]);
      await walked.apply(ledger.take());
      const next = await walked.request('GET', first.body.meta.next);
      expect([next.status, next.headers['x-block-height'], next.body.meta.totalCount]).toEqual([200, '1', 3]);
      const later = await walked.request('GET', first.body.meta.next.replace('minHeight=1', 'minHeight=2'));
      expect([later.status, later.body]).toEqual([
        410,
        {
          statusCode: 410,
          error: 'Gone',
          message: 'height 1 is no longer available; the earliest is 2',
          earliestHeight: 2,
          first: '/guardian/groups?limit=2&minHeight=2&cursor=',
        },
      ]);
    } finally {
      await walked.close();
    }
  });

  it('answers 409 with the head when the block does not come within 2 s', async () => {
    const started = performance.now();
    const { status, body, headers } = await area.request('GET', '/guardian/groups?minHeight=5');
    expect(performance.now() - started).toBeGreaterThanOrEqual(1900);
    expect([status, body, headers['retry-after']]).toEqual([
      409,
      { statusCode: 409, error: 'Conflict', message: 'height 5 is not yet available; the area is at height 3', head: 3 },
      '1',
    ]);
  });
});

describe('without history (HISTORY_BLOCKS=0)', () => {
  it('answers at the newest height alone, an older one with 410 and the newest as the earliest, walks included', async () => {
    const { area: bare, ledger } = await areaWithHistory({ historyBlocks: 0 });
    try {
      const head = await bare.request('GET', '/guardian/groups/a?height=3');
      expect([head.status, head.body.data.priority]).toEqual([200, 3]);
      const past = await bare.request('GET', '/guardian/groups/a?height=2');
      expect([past.status, past.body]).toEqual([
        410,
        { statusCode: 410, error: 'Gone', message: 'height 2 is no longer available; the earliest is 3', earliestHeight: 3 },
      ]);
      const { body } = await bare.request('GET', '/guardian/groups?limit=1&cursor=');
      ledger.block([ledger.setGroup(group('d', 5))]);
      await bare.apply(ledger.take());
      const walk = await bare.request('GET', body.meta.next);
      expect([walk.status, walk.body.earliestHeight, walk.body.first]).toEqual([410, 4, '/guardian/groups?limit=1&cursor=']);
    } finally {
      await bare.close();
    }
  });
});

describe('caching of reads at a past height', () => {
  it('sends answers named by height and block id at a final depth as immutable, and others as before', async () => {
    const deep = await areaWithHistory({ finalityDepth: 2 });
    try {
      const { blocks: kept } = deep;
      const final = await deep.area.request('GET', `/guardian/groups/a?height=1&blockId=${kept[0].id}`);
      expect(final.headers['cache-control']).toBe('public, max-age=31536000, immutable');
      const revertible = await deep.area.request('GET', `/guardian/groups/a?height=2&blockId=${kept[1].id}`);
      const unnamed = await deep.area.request('GET', '/guardian/groups/a?height=1');
      expect([revertible.headers['cache-control'], unnamed.headers['cache-control']]).toEqual(['no-cache', 'no-cache']);
    } finally {
      await deep.area.close();
    }
  });
});
