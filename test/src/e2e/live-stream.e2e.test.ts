import { generateDemoLedger } from '@ledger-api/demo-ledger';
import { recordEventStream, type RecordedEventStream } from '@ledger-api/http-core/testing';
import type { LedgerEvent } from '@ledger-api/ledger';
import { waitFor } from '@ledger-api/test-kit';
import { JetStreamLedger } from '../support/jetstream-ledger';
import { groupBlock, topBlock } from '../support/ledger-files';
import { startGuardianBehindGateway } from '../support/guardian-behind-gateway';
import { isReady, type RunningProcess } from '../support/processes';

/**
 * The live stream as a client meets it through the gateway, with the services on NATS
 * JetStream: one event per committed block in commit order, reverts included, each sent
 * only once the API answers at that block; resumed with Last-Event-ID across a gateway
 * restart with none lost or repeated.
 */
const ledger = new JetStreamLedger('live');
const events: LedgerEvent[] = generateDemoLedger({ seed: 5, blockCount: 60 });
const running: RunningProcess[] = [];
const streams: RecordedEventStream[] = [];
const publish = (batch: LedgerEvent[]) => ledger.publish(batch);

/** A stream as soon as the gateway serves one: until its commit feed is live it refuses with a stream that ends with `unavailable`. */
async function open(url: string, headers: Record<string, string> = {}) {
  let recorded: RecordedEventStream | undefined;
  await waitFor(async () => {
    const stream = await recordEventStream(url, headers);
    streams.push(stream);
    await waitFor(() => stream.events.length > 0, 'the first event of a stream');
    recorded = stream;
    return stream.status === 200 && stream.events[0].event !== 'unavailable';
  }, 'a live stream');
  return recorded as RecordedEventStream;
}

const heightOf = async (api: string) => Number((await fetch(`${api}/guardian/groups`)).headers.get('x-block-height'));

afterAll(async () => {
  for (const recorded of streams) recorded.close();
  await Promise.all(running.map((child) => child.stop()));
  await ledger.delete();
});

it('streams every committed block in order after its commit, and resumes across a gateway restart', async () => {
  await publish(events);
  const { guardian, base, admin, gateway, startGateway } = await startGuardianBehindGateway(ledger.env, running);
  const api = `${base}/api`;
  const top = topBlock(events);
  await waitFor(async () => (await isReady(admin)) && (await heightOf(api)) === top.height, 'the ledger through the gateway', 60_000, 100);

  const live = await open(`${api}/guardian/events`);
  await waitFor(() => live.events.length === 1, 'the position');
  expect(live.events[0]).toMatchObject({ event: 'position', data: JSON.stringify({ height: top.height, id: top.id }) });

  // Each event is checked the moment it arrives, before the next block is published (a later
  // revert may lower the height again): the API already answers at its block.
  const first = groupBlock(top, 'live-one');
  const second = groupBlock(first, 'live-two');
  const third = groupBlock(first, 'live-three');
  const published: LedgerEvent[] = [
    { event: 'block.applied', block: first },
    { event: 'block.applied', block: second },
    { event: 'block.reverted', block: { id: second.id, height: second.height } },
    { event: 'block.applied', block: third },
  ];
  const seenHeights: number[] = [];
  for (const [index, event] of published.entries()) {
    await publish([event]);
    await waitFor(() => live.events.length > index + 1, `event ${index + 1}`, 30_000, 1);
    const { height } = JSON.parse(live.events[index + 1].data) as { height: number };
    seenHeights.push((await heightOf(api)) - (event.event === 'block.reverted' ? height - 1 : height));
  }
  expect(live.events.slice(1).map((event) => [event.event, JSON.parse(event.data).height])).toEqual([
    ['block.applied', first.height],
    ['block.applied', second.height],
    ['block.reverted', second.height],
    ['block.applied', third.height],
  ]);
  expect(JSON.parse(live.events[1].data)).toEqual({
    height: first.height,
    id: first.id,
    timestamp: first.timestamp,
    transactions: [first.transactions[0].id],
  });
  expect(seenHeights.filter((ahead) => ahead < 0)).toEqual([]);

  // The gateway goes away; blocks keep coming; a client resumes from its last id at the new gateway.
  const lastSeen = live.events[live.events.length - 1].id ?? '';
  await gateway.stop();
  await live.ended;
  const fourth = groupBlock(third, 'live-four');
  const fifth = groupBlock(fourth, 'live-five');
  await publish([
    { event: 'block.applied', block: fourth },
    { event: 'block.applied', block: fifth },
  ]);
  await waitFor(
    async () => Number((await fetch(`${guardian}/guardian/groups`)).headers.get('x-block-height')) === fifth.height,
    'the new blocks',
    30_000,
  );
  startGateway();
  await waitFor(() => isReady(admin), 'the restarted gateway', 30_000, 100);
  const resumed = await open(`${api}/guardian/events`, { 'last-event-id': lastSeen });
  await waitFor(() => resumed.events.length === 2, 'the two blocks after the last id');
  expect(resumed.events.map((event) => JSON.parse(event.data).id)).toEqual([fourth.id, fifth.id]);
  expect(new Set([...live.events, ...resumed.events].map((event) => event.id)).size).toBe(live.events.length + resumed.events.length);
}, 180_000);
