import { liveEvents, type LiveEvent, type Reconnect } from '@ledger-api/client';
import { generateDemoLedger } from '@ledger-api/demo-ledger';
import type { Block, LedgerEvent } from '@ledger-api/ledger';
import { waitFor } from '@ledger-api/test-kit';
import { JetStreamLedger } from '../support/jetstream-ledger';
import { groupBlock, topBlock } from '../support/ledger-files';
import { startGuardianBehindGateway } from '../support/guardian-behind-gateway';
import { isReady, type RunningProcess } from '../support/processes';

/**
 * The typed client's live stream against the real thing: a guardian service on NATS
 * JetStream behind the gateway. The client reads typed events, outlives a gateway restart
 * on its own (reconnecting and resuming with Last-Event-ID, nothing lost or repeated) and
 * ends when its signal aborts.
 */
const ledger = new JetStreamLedger('live_client');
const events: LedgerEvent[] = generateDemoLedger({ seed: 11, blockCount: 50 });
const running: RunningProcess[] = [];

afterAll(async () => {
  await Promise.all(running.map((child) => child.stop()));
  await ledger.delete();
});

const applied = (block: Block): LedgerEvent => ({ event: 'block.applied', block });

it('reads typed events, resumes by itself across a gateway restart with none lost or repeated, and ends on abort', async () => {
  await ledger.publish(events);
  const { guardian, base, admin, gateway, startGateway } = await startGuardianBehindGateway(ledger.env, running);
  const top = topBlock(events);
  await waitFor(() => isReady(admin), 'the gateway', 60_000, 100);

  // Until the gateway's feed of the area is live its stream ends with `unavailable`: the client waits its retryAfter and tries again.
  const controller = new AbortController();
  const received: LiveEvent[] = [];
  const reconnects: Reconnect[] = [];
  const reading = (async () => {
    for await (const event of liveEvents(base, 'guardian', { signal: controller.signal, onReconnect: (reconnect) => reconnects.push(reconnect) }))
      received.push(event);
  })();
  await waitFor(() => received.length === 1, 'the position', 60_000);
  expect(received[0]).toMatchObject({ event: 'position', data: { height: top.height, id: top.id } });

  const first = groupBlock(top, 'client-one');
  const second = groupBlock(first, 'client-two');
  const third = groupBlock(first, 'client-three');
  await ledger.publish([
    applied(first),
    applied(second),
    { event: 'block.reverted', block: { id: second.id, height: second.height } },
    applied(third),
  ]);
  await waitFor(() => received.length === 5, 'four commits', 30_000);
  const [, one] = received;
  if (one.event !== 'block.applied') throw new Error(`expected block.applied, got ${one.event}`);
  // Typed by the event name: BlockApplied's fields, no cast.
  expect(one.data).toEqual({ height: first.height, id: first.id, timestamp: first.timestamp, transactions: [first.transactions[0].id] });
  expect(received.slice(1).map((event) => [event.event, event.data.id])).toEqual([
    ['block.applied', first.id],
    ['block.applied', second.id],
    ['block.reverted', second.id],
    ['block.applied', third.id],
  ]);

  // The gateway goes away and blocks keep coming; the same client carries on once a gateway is back on the port.
  const lastBeforeStop = received[received.length - 1].id;
  const reconnectsBefore = reconnects.length;
  await gateway.stop();
  const fourth = groupBlock(third, 'client-four');
  const fifth = groupBlock(fourth, 'client-five');
  await ledger.publish([applied(fourth), applied(fifth)]);
  await waitFor(
    async () => Number((await fetch(`${guardian}/guardian/groups`)).headers.get('x-block-height')) === fifth.height,
    'the new blocks at the service',
    30_000,
  );
  startGateway();
  await waitFor(() => received.length === 7, 'the two blocks committed while the gateway was away', 60_000);
  expect(received.slice(5).map((event) => [event.event, event.data.id])).toEqual([
    ['block.applied', fourth.id],
    ['block.applied', fifth.id],
  ]);
  expect(new Set(received.map((event) => event.id)).size).toBe(received.length);
  expect(reconnects.length).toBeGreaterThan(reconnectsBefore);
  expect(reconnects.slice(reconnectsBefore).every((reconnect) => reconnect.lastEventId === lastBeforeStop)).toBe(true);

  controller.abort();
  await reading;
  expect(received).toHaveLength(7);
}, 180_000);
