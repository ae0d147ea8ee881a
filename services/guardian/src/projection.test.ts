import {
  LedgerFault,
  ProjectionRunner,
  Projector,
  type LedgerEvent,
  type LedgerEventHandler,
  type LedgerPosition,
  type LedgerSource,
  type Transaction,
} from '@ledger-api/ledger';
import { silentLogger } from '@ledger-api/observability';
import { startTestArea, type TestArea } from '@ledger-api/runtime/testing';
import { expectMalformedTransactionRefused, startProjectionRunner, testPublicKey } from '@ledger-api/ledger/testing';
import { EmbeddedStore } from '@ledger-api/store';
import { guardianProjection } from './projection';
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
    expect((await area.request('GET', '/guardian/groups/ops')).body.data).toEqual({
      name: 'ops',
      priority: 7,
      active: false,
      default: true,
      allow: [],
      deny: [],
    });
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

describe('guardian payloads', () => {
  const validGroup = { name: 'ops', priority: 5, active: true, default: false };
  const malformed: Array<[what: string, type: number, asset: Record<string, unknown> | undefined, problemAt: string]> = [
    ['a null permission entry', 0, { setUserPermissions: { publicKey: erin, allow: [null] } }, 'asset.setUserPermissions.allow[0]'],
    ['a public key that is not 66 hex characters', 0, { setUserPermissions: { publicKey: 'erin' } }, 'asset.setUserPermissions.publicKey'],
    ['a group name that is not a string', 0, { setUserPermissions: { publicKey: erin, groupNames: [7] } }, 'asset.setUserPermissions.groupNames[0]'],
    ['no setUserPermissions member', 0, { setGroupPermissions: validGroup }, 'asset.setUserPermissions'],
    ['a priority written as text', 1, { setGroupPermissions: { ...validGroup, priority: '5' } }, 'asset.setGroupPermissions.priority'],
    ['no active flag', 1, { setGroupPermissions: { name: 'ops', priority: 5, default: false } }, 'asset.setGroupPermissions.active'],
    [
      'a permission entry without its type group',
      1,
      { setGroupPermissions: { ...validGroup, deny: [{ transactionType: 1 }] } },
      'asset.setGroupPermissions.deny[0].transactionTypeGroup',
    ],
    ['no asset', 1, undefined, 'asset'],
  ];

  /** The projection over a store holding the first block. */
  async function runnerWithFirstBlock() {
    const runner = await startProjectionRunner(guardianProjection);
    const chain = new GuardianLedger('payloads');
    chain.block([chain.setGroup(validGroup), chain.setUser({ publicKey: erin, groupNames: ['ops'], allow: [permission(0, 1)] })]);
    await runner.handle(...chain.take());
    return { runner, chain };
  }

  it.each(malformed)(
    'refuses %s (a 9002/%i transaction), naming the block and the transaction, and stores nothing of the block',
    async (_what, type, asset, problemAt) => {
      const { runner, chain } = await runnerWithFirstBlock();
      const bad: Transaction = chain.transaction({ typeGroup: 9002, type, senderPublicKey: erin, ...(asset && { asset }) });
      const block = chain.block([chain.setGroup({ ...validGroup, priority: 9 }), bad]);
      await expectMalformedTransactionRefused(
        runner,
        { event: 'block.applied', block },
        { transaction: bad, sequence: 1, problem: `${problemAt}: ` },
      );
      expect(runner.runner.position.height).toBe(1);
    },
  );

  it('ignores other type groups and unknown Guardian types, and members the ledger may add', async () => {
    await area.apply(ledger.take());
    const extended = { transactionType: 3, transactionTypeGroup: 9000, note: 'extra' };
    ledger.block([
      ledger.transaction({ typeGroup: 1, type: 0, senderPublicKey: erin, asset: { setUserPermissions: { allow: [null] } } }),
      ledger.transaction({ typeGroup: 9002, type: 7, senderPublicKey: erin, asset: { setUserPermissions: null } }),
      ledger.transaction({
        typeGroup: 9002,
        type: 0,
        senderPublicKey: erin,
        asset: { setUserPermissions: { publicKey: erin.toUpperCase(), allow: [extended], since: 3 }, memo: 1 },
      }),
    ]);
    await area.apply(ledger.take());
    expect((await area.request('GET', `/guardian/users/${erin}`)).body.data).toEqual({
      publicKey: erin,
      groups: [],
      permissions: [
        { kind: 1, types: [permission(3, 9000)] },
        { kind: 0, types: [] },
      ],
    });
    expect((await area.request('GET', '/guardian/users')).body.meta.totalCount).toBe(1);
  });
});

/** Replays its events on every run, as a ledger file would, and tells whether the projector stopped it or ran it again. */
class ReplaySource implements LedgerSource {
  runs = 0;
  readonly settled: Promise<'stopped' | 'run again'>;
  private settle!: (how: 'stopped' | 'run again') => void;

  constructor(private readonly events: LedgerEvent[]) {
    this.settled = new Promise((resolve) => (this.settle = resolve));
  }

  async run(handler: LedgerEventHandler, from: LedgerPosition): Promise<void> {
    this.runs += 1;
    if (this.runs > 1) this.settle('run again');
    for (const [index, event] of this.events.entries()) {
      if (index + 1 > from.streamSeq) await handler(event, index + 1);
    }
  }

  async stop(): Promise<void> {
    this.settle('stopped');
  }

  async caughtUp(): Promise<boolean> {
    return false;
  }
}

describe('a projector meeting a malformed guardian payload', () => {
  it('stops for good: faulted, not ready and not retrying, the fault naming the transaction', async () => {
    const chain = new GuardianLedger('projector');
    chain.block([chain.setGroup({ name: 'ops', priority: 5, active: true, default: false })]);
    const bad = chain.transaction({
      typeGroup: 9002,
      type: 0,
      senderPublicKey: erin,
      asset: { setUserPermissions: { publicKey: erin, allow: [null] } },
    });
    const block = chain.block([bad]);
    const source = new ReplaySource(chain.take());
    const runner = new ProjectionRunner({ store: new EmbeddedStore(), projection: guardianProjection, logger: silentLogger() });
    const projector = new Projector({ runner, source, logger: silentLogger(), retryDelayMs: 1 });

    await projector.start();
    try {
      expect(await source.settled).toBe('stopped');
      expect(projector.ready()).toBe(false);
      expect(projector.status()).toMatchObject({ state: 'faulted', position: { height: 1 } });
      expect(projector.status().fault).toContain(`block 2 (${block.id}): transaction ${bad.id} (sequence 0, type 9002/0)`);
      expect(projector.status().fault).toContain('asset.setUserPermissions.allow[0]');
      expect(source.runs).toBe(1);
    } finally {
      await projector.stop();
    }
  });
});
