import { LedgerFault, testPublicKey } from '@ledger-api/ledger';
import { startTestArea, type TestArea } from '@ledger-api/runtime';
import { guardianArea } from './service';
import { GuardianLedger, permission } from './testing/guardian-ledger';

const erin = testPublicKey('erin');
let area: TestArea;
let ledger: GuardianLedger;

beforeEach(async () => {
  ledger = new GuardianLedger('projection');
  ledger.block([
    ledger.setGroup({ name: 'ops', priority: 5, active: true, default: false, allow: [permission(0, 1)] }),
    ledger.setUser({ publicKey: erin, groupNames: ['ops'] }),
  ]);
  area = await startTestArea(guardianArea, ledger.take());
});

afterEach(() => area.close());

const snapshot = async () => ({
  groups: (await area.request('GET', '/guardian/groups')).body,
  ops: (await area.request('GET', '/guardian/groups/ops')).body,
  users: (await area.request('GET', '/guardian/users')).body,
  erin: (await area.request('GET', `/guardian/users/${erin}`)).body,
});

describe('guardian projection', () => {
  it('replaces groups and users wholesale', async () => {
    await area.apply(ledger.take());
    ledger.block([
      ledger.setGroup({ name: 'ops', priority: 7, active: false, default: true }),
      ledger.setUser({ publicKey: erin, deny: [permission(2, 9001)] }),
    ]);
    await area.apply(ledger.take());
    expect((await area.request('GET', '/guardian/groups/ops')).body.data).toEqual({ name: 'ops', priority: 7, active: false, default: true, allow: [], deny: [] });
    expect((await area.request('GET', `/guardian/users/${erin}`)).body.data).toEqual({
      publicKey: erin,
      groups: [],
      permissions: [
        { kind: 1, types: [] },
        { kind: 0, types: [permission(2, 9001)] },
      ],
    });
  });

  it('returns to exactly the previous state when a block is reverted', async () => {
    const before = await snapshot();
    ledger.block([
      ledger.setGroup({ name: 'ops', priority: 9, active: false, default: false }),
      ledger.setGroup({ name: 'new', priority: 1, active: true, default: false }),
      ledger.setUser({ publicKey: erin, groupNames: ['new'] }),
      ledger.setUser({ publicKey: testPublicKey('frank'), groupNames: ['ops'] }),
    ]);
    ledger.revert();
    const events = ledger.take();
    await area.apply(events.slice(0, 1));
    expect((await area.request('GET', '/guardian/groups')).body.meta.totalCount).toBe(2);
    expect((await area.request('GET', '/guardian/groups')).headers['x-block-height']).toBe('2');
    await area.apply(events.slice(1));
    expect(await snapshot()).toEqual(before);
    expect((await area.request('GET', '/guardian/groups/new')).status).toBe(404);
    expect((await area.request('GET', '/guardian/groups')).headers['x-block-height']).toBe('1');
  });

  it('keeps a user in first-seen order after a later update', async () => {
    ledger.block([ledger.setUser({ publicKey: testPublicKey('gina') })]);
    ledger.block([ledger.setUser({ publicKey: erin, groupNames: [] })]);
    await area.apply(ledger.take());
    const keys = (await area.request('GET', '/guardian/users')).body.data.map((user: { publicKey: string }) => user.publicKey);
    expect(keys).toEqual([erin, testPublicKey('gina')]);
  });

  it('ignores a redelivered block', async () => {
    const before = await snapshot();
    const block = ledger.block([ledger.setGroup({ name: 'ops', priority: 1, active: false, default: false })]);
    await area.apply(ledger.take());
    const after = await snapshot();
    await area.runner.handle({ event: 'block.applied', block }, 99);
    expect(await snapshot()).toEqual(after);
    expect(after).not.toEqual(before);
  });

  it('refuses a gap and changes nothing', async () => {
    const before = await snapshot();
    ledger.block([]);
    const skipped = ledger.block([ledger.setGroup({ name: 'late', priority: 1, active: true, default: false })]);
    ledger.take();
    await expect(area.runner.handle({ event: 'block.applied', block: skipped }, 50)).rejects.toBeInstanceOf(LedgerFault);
    expect(await snapshot()).toEqual(before);
  });
});
