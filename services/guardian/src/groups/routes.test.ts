import { join } from 'node:path';
import { packageOf } from '@ledger-api/runtime';
import { startTestArea, type TestArea } from '@ledger-api/runtime/testing';
import { testPublicKey } from '@ledger-api/ledger/testing';
import { guardianArea } from '../service';
import { GuardianLedger, permission } from '../testing/guardian-ledger';

const alice = testPublicKey('alice');
const bob = testPublicKey('bob');
let area: TestArea;

beforeAll(async () => {
  const ledger = new GuardianLedger();
  ledger.block([
    ledger.setGroup({ name: 'Test Group', priority: 10, active: true, default: false, allow: [permission(0, 1)] }),
    ledger.setGroup({ name: 'admins', priority: 1, active: true, default: true, deny: [permission(1, 9000)] }),
  ]);
  ledger.block([
    ledger.setGroup({ name: 'Testers', priority: 10, active: false, default: false }),
    ledger.setGroup({ name: 'a.b(c)', priority: 500, active: false, default: false }),
    ledger.setUser({ publicKey: bob, groupNames: ['Test Group', 'admins'] }),
    ledger.setUser({ publicKey: alice, groupNames: ['Test Group'] }),
  ]);
  area = await startTestArea(guardianArea, ledger.take());
});

afterAll(() => area.close());

const names = (body: { data: Array<{ name: string }> }) => body.data.map((group) => group.name);

describe('GET /guardian/groups', () => {
  it('lists groups by name in code-unit order with the guardian meta', async () => {
    const { status, body, headers } = await area.request('GET', '/guardian/groups');
    expect(status).toBe(200);
    expect(names(body)).toEqual(['Test Group', 'Testers', 'a.b(c)', 'admins']);
    expect(body.meta).toEqual({
      totalCountIsEstimate: false,
      count: 4,
      pageCount: 1,
      totalCount: 4,
      next: null,
      previous: null,
      self: '/guardian/groups?page=1&limit=100',
      first: '/guardian/groups?page=1&limit=100',
      last: '/guardian/groups?page=1&limit=100',
    });
    expect(body.data[0]).toEqual({ name: 'Test Group', priority: 10, active: true, default: false, allow: [permission(0, 1)], deny: [] });
    expect(headers['x-block-height']).toBe('2');
  });

  it('filters names with % wildcards, ignoring case, and keeps other characters literal', async () => {
    expect(names((await area.request('GET', '/guardian/groups?name=test%25')).body)).toEqual(['Test Group', 'Testers']);
    expect(names((await area.request('GET', '/guardian/groups?name=%25GROUP')).body)).toEqual(['Test Group']);
    expect(names((await area.request('GET', '/guardian/groups?name=Test')).body)).toEqual([]);
    expect(names((await area.request('GET', '/guardian/groups?name=a.b(c)')).body)).toEqual(['a.b(c)']);
    expect(names((await area.request('GET', '/guardian/groups?name=a%25(c)')).body)).toEqual(['a.b(c)']);
    expect(names((await area.request('GET', '/guardian/groups?name=.%25')).body)).toEqual([]);
    const { body } = await area.request('GET', '/guardian/groups?name=Test%25');
    expect(body.meta.self).toBe('/guardian/groups?name=Test%25&page=1&limit=100');
  });

  // That a pattern of many wildcards is matched in linear time is the store's test (likeFilter).
  it('answers any wildcard pattern exactly', async () => {
    const namesOf = async (pattern: string) => {
      const { status, body } = await area.request('GET', `/guardian/groups?name=${encodeURIComponent(pattern)}`);
      expect(status).toBe(200);
      return names(body);
    };
    expect(await namesOf(`${'%'.repeat(40)}z`)).toEqual([]);
    expect(await namesOf(`%${'t%'.repeat(40)}`)).toEqual([]);
    expect(await namesOf(`%${[...'testers'].join('%')}%`)).toEqual(['Testers']);
    expect(await namesOf('%%e%%s%%')).toEqual(['Test Group', 'Testers']);
  });

  it('combines priority, active and default filters with AND', async () => {
    expect(names((await area.request('GET', '/guardian/groups?priority=10')).body)).toEqual(['Test Group', 'Testers']);
    expect(names((await area.request('GET', '/guardian/groups?priority=10&active=TRUE')).body)).toEqual(['Test Group']);
    expect(names((await area.request('GET', '/guardian/groups?default=true')).body)).toEqual(['admins']);
  });

  it('orders by any orderable field, ties falling back to name', async () => {
    expect(names((await area.request('GET', '/guardian/groups?orderBy=priority:desc')).body)).toEqual(['a.b(c)', 'Test Group', 'Testers', 'admins']);
    expect(names((await area.request('GET', '/guardian/groups?orderBy=active:asc')).body)).toEqual(['Testers', 'a.b(c)', 'Test Group', 'admins']);
    expect(names((await area.request('GET', '/guardian/groups?orderBy=name:desc')).body)).toEqual(['admins', 'a.b(c)', 'Testers', 'Test Group']);
  });

  it('pages with links that keep the client query', async () => {
    const { body } = await area.request('GET', '/guardian/groups?orderBy=name:asc&limit=3&page=2');
    expect(names(body)).toEqual(['admins']);
    expect(body.meta).toMatchObject({
      count: 1,
      pageCount: 2,
      totalCount: 4,
      next: null,
      previous: '/guardian/groups?orderBy=name%3Aasc&limit=3&page=1',
      self: '/guardian/groups?orderBy=name%3Aasc&limit=3&page=2',
    });
    expect(names((await area.request('GET', '/guardian/groups?limit=2&offset=1')).body)).toEqual(['Testers', 'a.b(c)']);
  });

  it.each([
    ['/guardian/groups?limit=101', '"limit" must be less than or equal to 100'],
    ['/guardian/groups?page=0', '"page" must be a positive number'],
    ['/guardian/groups?priority=1.5', '"priority" must be an integer'],
    ['/guardian/groups?active=yes', '"active" must be a boolean'],
    ['/guardian/groups?transform=true', '"transform" is not allowed'],
    [
      '/guardian/groups?orderBy=priority',
      '"orderBy" with value "priority" fails to match the orderBy query parameter (<iteratee>:<direction>) pattern',
    ],
    ['/guardian/groups?orderBy=allow:asc', "Unknown orderBy property 'allow'"],
  ])('%s is a 422', async (path, message) => {
    const { status, body, headers } = await area.request('GET', path);
    expect(status).toBe(422);
    expect(body).toEqual({ statusCode: 422, error: 'Unprocessable Entity', message });
    expect(headers['content-type']).toMatch(/^application\/json/);
  });
});

describe('GET /guardian/groups/{id}', () => {
  it('finds a group by its exact, URL-decoded name', async () => {
    const { status, body } = await area.request('GET', '/guardian/groups/Test%20Group');
    expect(status).toBe(200);
    expect(body.data.name).toBe('Test Group');
  });

  it('is case-sensitive and answers 404 for an unknown name', async () => {
    const { status, body } = await area.request('GET', '/guardian/groups/test%20group');
    expect(status).toBe(404);
    expect(body).toEqual({ statusCode: 404, error: 'Not Found', message: 'Group not found' });
  });

  it('ignores a trailing slash', async () => {
    expect((await area.request('GET', '/guardian/groups/admins/')).body.data.name).toBe('admins');
  });
});

describe('GET /guardian/groups/{id}/users', () => {
  it('lists members in first-seen order, not paged', async () => {
    const { status, body } = await area.request('GET', '/guardian/groups/Test%20Group/users');
    expect(status).toBe(200);
    expect(body).toEqual({
      data: [
        { publicKey: bob, groups: ['Test Group', 'admins'], allow: [], deny: [] },
        { publicKey: alice, groups: ['Test Group'], allow: [], deny: [] },
      ],
    });
  });

  it('answers 404 for an unknown group and an empty list for a group without members', async () => {
    expect((await area.request('GET', '/guardian/groups/nobody/users')).body.message).toBe('Group not found');
    expect((await area.request('GET', '/guardian/groups/Testers/users')).body).toEqual({ data: [] });
  });
});

describe('GET /guardian/configurations', () => {
  it("reports the service's package, by its manifest, and the Guardian constants", async () => {
    const { name, version } = packageOf(join(__dirname, '..'));
    const { body } = await area.request('GET', '/guardian/configurations');
    expect(body).toEqual({
      data: {
        package: { name, currentVersion: version, latestVersion: version },
        crypto: {
          defaults: {
            guardianTypeGroup: 9002,
            version: 2,
            guardianGroupName: { minLength: 1, maxLength: 40 },
            guardianGroupPriority: { min: 0, max: 1000 },
          },
        },
        transactions: { defaults: { maxDefinedGroupsPerUser: 20, transactionsAllowedByDefault: true, feeType: 0 } },
      },
    });
  });

  it('takes no query parameters', async () => {
    expect((await area.request('GET', '/guardian/configurations?x=1')).body.message).toBe('"x" is not allowed');
  });
});
