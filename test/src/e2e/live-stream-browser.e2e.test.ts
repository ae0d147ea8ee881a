import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { setTimeout as pause } from 'node:timers/promises';
import { generateDemoLedger } from '@ledger-api/demo-ledger';
import { recordEventStream, type RecordedEventStream } from '@ledger-api/http-core/testing';
import type { Block, LedgerEvent } from '@ledger-api/ledger';
import { waitFor } from '@ledger-api/test-kit';
import { startGuardianBehindGateway } from '../support/guardian-behind-gateway';
import { JetStreamLedger } from '../support/jetstream-ledger';
import { groupBlock, topBlock } from '../support/ledger-files';
import { isReady, type RunningProcess } from '../support/processes';
import { openHeadlessPage, type HeadlessPage } from './headless-chromium';

/**
 * The live stream as a browser keeps it: Chromium's own EventSource, which gives up for good
 * on any answer but a 200 event stream, follows the guardian area through the gateway while
 * blocks keep being committed, through a gateway restart, a refusal past the streams one
 * client address may hold, and a rollout of the area's service. It reconnects by itself each
 * time; across the gateway restart it resumes with none missed or repeated, and across the
 * rollout (whose embedded store is a new read model) it is reset to the position and goes on
 * from there.
 */
const ledger = new JetStreamLedger('browser_stream');
const history: LedgerEvent[] = generateDemoLedger({ seed: 21, blockCount: 50 });
const MAX_PER_CLIENT = 2;
/** EventSource.OPEN */
const OPEN = 1;
/** How often a block is committed while the test runs. */
const BLOCK_INTERVAL_MS = 250;
const running: RunningProcess[] = [];
const held: RecordedEventStream[] = [];
let browser: HeadlessPage | undefined;
let pageServer: Server | undefined;

/** An empty HTML page on a port of its own; its URL. */
async function servePage(): Promise<string> {
  pageServer = createServer((_req, res) => res.writeHead(200, { 'content-type': 'text/html' }).end('<!doctype html><title>streams</title>'));
  pageServer.listen(0, '127.0.0.1');
  await once(pageServer, 'listening');
  return `http://127.0.0.1:${(pageServer.address() as AddressInfo).port}/`;
}

afterAll(async () => {
  held.forEach((stream) => stream.close());
  pageServer?.closeAllConnections();
  pageServer?.close();
  await browser?.close();
  // A test that failed while the service was held must not leave it so.
  running.forEach(({ child }) => child.kill('SIGCONT'));
  await Promise.all(running.map((child) => child.stop()));
  await ledger.delete();
});

/** What one EventSource of the page received: each event with the id the browser kept, and its data. */
interface BrowserEvent {
  event: string;
  id: string;
  data: { height?: number; id?: string; reason?: string; retryAfter?: number };
}

/** Installed in the page: `openStream(name)` opens an EventSource on the area's stream at the gateway and records what it receives. */
const pageScript = (gateway: string) => `
  window.streams = {};
  window.openStream = (name) => {
    const source = new EventSource(${JSON.stringify(`${gateway}/api/guardian/events`)});
    const stream = { source, events: [], opens: 0 };
    for (const event of ['position', 'reset', 'block.applied', 'block.reverted', 'unavailable'])
      source.addEventListener(event, (message) => stream.events.push({ event, id: message.lastEventId, data: JSON.parse(message.data) }));
    source.addEventListener('open', () => (stream.opens += 1));
    window.streams[name] = stream;
  };
`;

/** Blocks committed one after the other on top of the demo ledger until stopped: what the streams must carry. */
class BlockPublisher {
  readonly committed: Block[];
  private publishing = true;
  private readonly done: Promise<void>;

  constructor(top: Block) {
    this.committed = [top];
    this.done = this.run();
  }

  private async run(): Promise<void> {
    while (this.publishing) {
      const next = groupBlock(this.committed[this.committed.length - 1], `browser-${this.committed.length}`);
      await ledger.publish([{ event: 'block.applied', block: next }]);
      this.committed.push(next);
      await pause(BLOCK_INTERVAL_MS);
    }
  }

  get top(): Block {
    return this.committed[this.committed.length - 1];
  }

  stop(): Promise<void> {
    this.publishing = false;
    return this.done;
  }
}

const eventsOf = (name: string) => browser!.page.evaluate(`window.streams[${JSON.stringify(name)}].events`) as Promise<BrowserEvent[]>;
const opensOf = (name: string) => browser!.page.evaluate(`window.streams[${JSON.stringify(name)}].opens`) as Promise<number>;
const lastHeight = async (name: string) => (await eventsOf(name)).filter(({ event }) => event !== 'unavailable').at(-1)?.data.height ?? 0;
const reachedAfter = async (name: string, height: number, what: string) => {
  await waitFor(async () => (await lastHeight(name)) > height, what, 60_000, 100);
};

/**
 * The events of a stream as the committed chain says they must be: each block.applied the
 * block after the one before, a reset anywhere at or past it (re-read from there), every id
 * once. Returns the heights where it was reset.
 */
function expectNoneMissedOrRepeated(events: BrowserEvent[], committed: Block[]): number[] {
  const byHeight = new Map(committed.map((block) => [block.height, block]));
  const kept = events.filter(({ event }) => event !== 'unavailable');
  expect(kept[0].event).toBe('position');
  const resets: number[] = [];
  let height = kept[0].data.height ?? 0;
  for (const { event, data } of kept.slice(1)) {
    if (event === 'reset') {
      expect(data.height).toBeGreaterThanOrEqual(height);
      resets.push((height = data.height ?? 0));
      continue;
    }
    expect({ event, height: data.height }).toEqual({ event: 'block.applied', height: height + 1 });
    height += 1;
    expect(data.id).toBe(byHeight.get(height)?.id);
  }
  const applied = kept.filter(({ event }) => event === 'block.applied');
  expect(new Set(applied.map(({ data }) => data.id)).size).toBe(applied.length);
  return resets;
}

it('keeps a browser’s EventSource through a gateway restart, a per-client cap and a service rollout, missing no block', async () => {
  await ledger.publish(history);
  const stack = await startGuardianBehindGateway(ledger.env, running, {
    EVENTS_MAX_PER_CLIENT: String(MAX_PER_CLIENT),
    RATE_LIMIT_PER_MINUTE: '0',
    SHUTDOWN_DELAY_MS: '1500',
  });
  await waitFor(() => isReady(stack.admin), 'the gateway', 60_000, 100);
  browser = await openHeadlessPage();
  // A page of another local origin, as a web app's would be: the API's CORS lets it read the stream.
  await browser.page.goto(await servePage());
  await browser.page.evaluate(pageScript(stack.base));
  await browser.page.evaluate(`window.openStream('main')`);
  await waitFor(async () => (await eventsOf('main')).length > 0, 'the position', 30_000, 100);
  const publisher = new BlockPublisher(topBlock(history));
  await reachedAfter('main', publisher.top.height + 2, 'blocks streamed to the browser');

  // A gateway restart. On SIGTERM it reports not ready first, while the browser's stream stays open through the shutdown delay.
  let gateway = stack.gateway;
  const beforeRestart = await lastHeight('main');
  const stopping = gateway.stop('SIGTERM');
  await waitFor(async () => !(await isReady(stack.admin)), 'the stopping gateway not ready', 10_000, 50);
  expect(await browser.page.evaluate(`window.streams.main.source.readyState`)).toBe(OPEN);
  expect(await stopping).toBe(0);
  // The service is held (SIGSTOP) while the gateway starts again, so its feed of the area is not live for a while.
  stack.guardianProcess.child.kill('SIGSTOP');
  gateway = stack.startGateway();
  // Reconnecting meanwhile, it may have met the stopping gateway's refusal (shutting down) too.
  const noFeed = async () =>
    (await eventsOf('main')).some(({ event, data }) => event === 'unavailable' && data.reason?.includes('no live feed of guardian'));
  await waitFor(noFeed, 'a refusal while the feed is not live', 30_000, 100);
  stack.guardianProcess.child.kill('SIGCONT');
  await reachedAfter('main', publisher.top.height + 2, 'blocks streamed after the gateway restart');
  expect(await opensOf('main')).toBeGreaterThan(1);
  expect(await lastHeight('main')).toBeGreaterThan(beforeRestart);

  // Past the cap of one client address: the refused EventSource waits, then gets in once a stream closes.
  held.push(await recordEventStream(`${stack.base}/api/guardian/events`));
  await waitFor(() => held[0].events.length > 0, 'the stream that fills the cap');
  expect(held[0].events[0].event).toBe('position');
  await browser.page.evaluate(`window.openStream('capped')`);
  await waitFor(async () => (await eventsOf('capped')).length > 0, 'the refusal', 30_000, 100);
  expect((await eventsOf('capped'))[0]).toMatchObject({
    event: 'unavailable',
    data: { reason: `At most ${MAX_PER_CLIENT} live streams per client`, retryAfter: 10 },
  });
  held[0].close();
  await waitFor(async () => (await eventsOf('capped')).some(({ event }) => event === 'position'), 'the capped stream let in', 30_000, 100);
  await reachedAfter('capped', publisher.top.height + 1, 'blocks on the stream let in');
  await browser.page.evaluate(`window.streams.capped.source.close()`);

  // A rollout of the area's service: the gateway's feed of the area is lost meanwhile, and a page opened then is told so.
  const beforeRollout = await lastHeight('main');
  expect(await stack.guardianProcess.stop('SIGTERM')).toBe(0);
  await browser.page.evaluate(`window.openStream('during-rollout')`);
  const service = stack.startService();
  await waitFor(() => isReady(stack.guardianAdmin), 'the restarted service', 60_000, 100);
  await reachedAfter('main', publisher.top.height + 2, 'blocks streamed after the rollout');
  await reachedAfter('during-rollout', publisher.top.height + 1, 'blocks on the stream opened during the rollout');
  const duringRollout = await eventsOf('during-rollout');
  expect(duringRollout[0]).toMatchObject({ event: 'unavailable', data: { reason: expect.stringContaining('no live feed of guardian') } });

  await publisher.stop();
  await reachedAfter('main', publisher.top.height - 1, 'every block committed');
  const resets = expectNoneMissedOrRepeated(await eventsOf('main'), publisher.committed);
  // The restarted service replayed into a new read model, so the stream was reset once, past where it was.
  expect(resets).toHaveLength(1);
  expect(resets[0]).toBeGreaterThan(beforeRollout);
  expectNoneMissedOrRepeated(await eventsOf('during-rollout'), publisher.committed);
  expect(browser.errors.filter((error) => error.startsWith('page error'))).toEqual([]);
  await Promise.all([gateway.stop(), service.stop()]);
}, 240_000);
