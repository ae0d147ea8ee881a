import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import {
  LEDGER_COMMIT_HEADER,
  LiveStreams,
  STORABLE,
  STORABLE_HEADER,
  STREAM_HEADERS,
  UNTIL_DATA_CHANGES,
  VALIDITY_HEADER,
  formatCommitId,
  type LiveEventSource,
  type StreamEvent,
} from '@ledger-api/http-core';
import { portOf } from '../server';
import type { RunningServer } from './gateway-harness';

/**
 * A stand-in for one area's service as the gateway sees it: pages that name the commit they
 * were rendered at, and the live stream of its commits, each under the test's control. As at
 * the services, every page but a batch lookup's (a path ending in `/batch`) is marked storable,
 * and holds until the area's data changes unless its query has `expired` (as the exchange's
 * expiry flag, an answer for its block only).
 */
export interface FakeArea extends RunningServer {
  readonly readModel: string;
  readonly generation: number;
  /** Page requests the service answered. */
  readonly renders: number;
  /**
   * Commits a block (or takes the last one back) and announces it on the stream, unless told to keep
   * quiet; `changesData` false: a block with nothing for the area (or the revert of one).
   */
  commit(kind?: 'block.applied' | 'block.reverted', announce?: boolean, changesData?: boolean): void;
  /** Announces the commits made quietly. */
  announce(): void;
  /** Pages are rendered at this generation instead of the newest (a replica that trails). */
  answerFrom(generation: number | undefined): void;
  /** Pages tell clients this in Cache-Control instead of what the services tell them; undefined for that again. */
  tellClients(cacheControl: string | undefined): void;
  /** Page requests wait unanswered until the returned function is called. */
  holdPages(): () => void;
  /** Ends the live streams and refuses new ones until restoreFeed. */
  dropFeed(): void;
  /** Writes `frame` as it is on the open live streams, and answers new ones with it alone, until restoreFeed: a service gone wrong. */
  corruptFeed(frame: string): void;
  restoreFeed(): void;
}

/** A block's time, as the stream's schema has it. */
const timestampOf = (height: number) => ({ epoch: height, unix: height, human: new Date(height * 1000).toISOString() });

/** `basePath` is the area's path at the service, e.g. `/nft`. */
export async function startFakeArea(basePath: string, readModel = 'fakeModel'): Promise<FakeArea> {
  const history: StreamEvent[] = [];
  const listeners = new Set<(event: StreamEvent | undefined) => void>();
  let generation = 1;
  /** By generation, the generation that last changed the data; a generation not in it changed the data itself. */
  const changedAtOf = new Map<number, number>();
  let height = 1;
  let announced = 1;
  let renderedAt: number | undefined;
  let cacheControl: string | undefined;
  let renders = 0;
  let feedUp = true;
  let corruptFrame: string | undefined;
  const openStreams = new Set<ServerResponse>();
  let held: Array<() => void> | undefined;
  const streams = new LiveStreams({ keepAliveMs: 60_000 });
  const commitOf = (at: number) => ({ readModel, generation: at, changedAt: changedAtOf.get(at) ?? at });
  const source: LiveEventSource = {
    position: () => ({ commit: commitOf(announced), data: { height, id: `block-${height}` } }),
    eventsAfter: async ({ generation: after }) => history.filter((event) => event.commit.generation > after),
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
  const announce = () => {
    for (const event of history.filter((past) => past.commit.generation > announced)) {
      announced = event.commit.generation;
      for (const listener of listeners) listener(event);
    }
  };

  const page = (req: IncomingMessage, res: ServerResponse, body: string) => {
    renders += 1;
    const at = renderedAt ?? generation;
    const text = JSON.stringify({ data: { generation: at, method: req.method, url: req.url, body } });
    const [path, query = ''] = (req.url ?? '').split('?');
    const batch = path.endsWith('/batch');
    const forItsBlock = new URLSearchParams(query).has('expired');
    res.writeHead(200, {
      'content-type': 'application/json; charset=utf-8',
      'cache-control': cacheControl ?? (req.method === 'POST' ? 'no-store' : 'no-cache'),
      etag: `"page-${at}-${text.length}"`,
      vary: 'Accept-Encoding',
      'x-block-height': String(height),
      'x-block-id': `block-${height}`,
      [LEDGER_COMMIT_HEADER]: formatCommitId(commitOf(at)),
      ...(!batch && { [STORABLE_HEADER]: STORABLE }),
      ...(!batch && !forItsBlock && { [VALIDITY_HEADER]: UNTIL_DATA_CHANGES }),
    });
    res.end(req.method === 'HEAD' ? undefined : text);
  };

  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      if (req.url === `${basePath}/events`) {
        if (!feedUp) return res.writeHead(503).end();
        openStreams.add(res);
        res.once('close', () => openStreams.delete(res));
        if (corruptFrame !== undefined) return void res.writeHead(200, STREAM_HEADERS).write(corruptFrame);
        return void streams.serve(req, res, source);
      }
      const answer = () => page(req, res, Buffer.concat(chunks).toString('utf8'));
      if (held) held.push(answer);
      else answer();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));

  return {
    url: `http://127.0.0.1:${portOf(server)}`,
    readModel,
    get generation() {
      return generation;
    },
    get renders() {
      return renders;
    },
    commit(kind = 'block.applied', announceNow = true, changesData = true) {
      generation += 1;
      if (!changesData) changedAtOf.set(generation, changedAtOf.get(generation - 1) ?? generation - 1);
      const block = { height: kind === 'block.applied' ? height + 1 : height, id: `block-${kind === 'block.applied' ? height + 1 : height}` };
      height = kind === 'block.applied' ? height + 1 : height - 1;
      history.push({
        event: kind,
        commit: commitOf(generation),
        data: { ...block, ...(kind === 'block.applied' && { timestamp: timestampOf(block.height), transactions: [] }) },
      });
      if (announceNow) announce();
    },
    announce,
    answerFrom: (at) => (renderedAt = at),
    tellClients: (value) => (cacheControl = value),
    holdPages() {
      const waiting: Array<() => void> = [];
      held = waiting;
      return () => {
        held = undefined;
        waiting.forEach((answer) => answer());
      };
    },
    dropFeed() {
      feedUp = false;
      // Not streams.endAll(): that is for shutdown, and refuses every stream after it.
      for (const res of openStreams) res.end();
    },
    corruptFeed(frame) {
      corruptFrame = frame;
      for (const res of openStreams) res.write(frame);
    },
    restoreFeed() {
      feedUp = true;
      corruptFrame = undefined;
      // A stream opened now starts at the newest commit, whatever the ended ones were told.
      announced = generation;
    },
    async close() {
      streams.endAll();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
