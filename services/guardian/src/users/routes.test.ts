import { startTestArea, type TestArea } from '@ledger-api/runtime/testing';
import { testPublicKey } from '@ledger-api/ledger/testing';
import { guardianArea } from '../service';
import { GuardianLedger, permission } from '../testing/guardian-ledger';

const carol = testPublicKey('carol');
const dave = testPublicKey('dave');
let area: TestArea;

beforeAll(async () => {
  const ledger = new GuardianLedger();
  ledger.block([
    ledger.setGroup({ name: 'writers', priority: 1, active: true, default: false }),
    ledger.setGroup({ name: 'readers', priority: 2, active: true, default: true }),
    ledger.setUser({ publicKey: carol, groupNames: ['writers', 'ghosts', 'readers'], allow: [permission(3, 9000)], deny: [permission(1, 1)] }),
  ]);
  ledger.block([ledger.setUser({ publicKey: dave.toUpperCase() })]);
  area = await startTestArea(guardianArea, ledger.take());
});

afterAll(() => area.close());

describe('GET /guardian/users', () => {
  it('lists users in first-seen order in the list form', async () => {
    const { status, body } = await area.request('GET', '/guardian/users');
    expect(status).toBe(200);
    expect(body.data).toEqual([
      { publicKey: carol, groups: ['writers', 'ghosts', 'readers'], allow: [permission(3, 9000)], deny: [permission(1, 1)] },
      { publicKey: dave, groups: [], allow: [], deny: [] },
    ]);
    expect(body.meta.self).toBe('/guardian/users?page=1&limit=100');
  });

  it('filters public keys exactly or with wildcards, compared lower-cased', async () => {
    const keys = async (query: string) =>
      (await area.request('GET', `/guardian/users?publicKey=${query}`)).body.data.map((u: { publicKey: string }) => u.publicKey);
    expect(await keys(carol.toUpperCase())).toEqual([carol]);
    expect(await keys(`${dave.slice(0, 10)}%25`)).toEqual([dave]);
    expect(await keys(`%25${carol.slice(-6)}`)).toEqual([carol]);
    expect(await keys('02%25')).toEqual([carol, dave]);
    expect(await keys('02')).toEqual([]);
  });

  // That a pattern of many wildcards is matched in linear time is the store's test (likeFilter).
  it('answers any wildcard pattern exactly', async () => {
    const keysOf = async (pattern: string) => {
      const { status, body } = await area.request('GET', `/guardian/users?publicKey=${encodeURIComponent(pattern)}`);
      expect(status).toBe(200);
      return body.data.map((user: { publicKey: string }) => user.publicKey);
    };
    expect(await keysOf(`${'%'.repeat(40)}z`)).toEqual([]);
    expect(await keysOf(`%${'0%'.repeat(40)}z`)).toEqual([]);
    expect(await keysOf(`${[...carol.slice(0, 40)].join('%')}%`)).toEqual([carol]);
    expect(await keysOf(`%${[...dave.slice(-40).toUpperCase()].join('%%')}`)).toEqual([dave]);
  });

  it('takes no orderBy', async () => {
    const { status, body } = await area.request('GET', '/guardian/users?orderBy=publicKey:asc');
    expect(status).toBe(422);
    expect(body.message).toBe('"orderBy" is not allowed');
  });
});

describe('GET /guardian/users/{id}', () => {
  it('shows the detail form with allow (kind 1) and deny (kind 0) always present', async () => {
    expect((await area.request('GET', `/guardian/users/${carol.toUpperCase()}`)).body).toEqual({
      data: {
        publicKey: carol,
        groups: ['writers', 'ghosts', 'readers'],
        permissions: [
          { kind: 1, types: [permission(3, 9000)] },
          { kind: 0, types: [permission(1, 1)] },
        ],
      },
    });
    expect((await area.request('GET', `/guardian/users/${dave}`)).body.data.permissions).toEqual([
      { kind: 1, types: [] },
      { kind: 0, types: [] },
    ]);
  });

  it('answers 404 for an unknown key and 422 for a malformed one', async () => {
    expect((await area.request('GET', `/guardian/users/${testPublicKey('nobody')}`)).body).toEqual({
      statusCode: 404,
      error: 'Not Found',
      message: 'User not found',
    });
    expect((await area.request('GET', '/guardian/users/abc')).body.message).toBe('"id" length must be 66 characters long');
    expect((await area.request('GET', `/guardian/users/${'x'.repeat(66)}`)).body.message).toBe('"id" must only contain hexadecimal characters');
  });
});

describe('GET /guardian/users/{id}/groups', () => {
  it("lists the user's groups in the user's order, skipping names without a group", async () => {
    const { body } = await area.request('GET', `/guardian/users/${carol}/groups`);
    expect(body.data.map((group: { name: string }) => group.name)).toEqual(['writers', 'readers']);
    expect(body.meta).toBeUndefined();
  });

  it('answers 404 for an unknown user', async () => {
    expect((await area.request('GET', `/guardian/users/${testPublicKey('nobody')}/groups`)).status).toBe(404);
  });
});
