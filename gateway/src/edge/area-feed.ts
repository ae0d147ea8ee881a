import { Agent } from 'node:http';
import {
  commitReaches,
  formatCommitId,
  openEventStream,
  type CommitId,
  type EventStreamConnection,
  type LiveEventSource,
  type ReceivedEvent,
  type StreamEvent,
} from '@ledger-api/http-core';
import type { Logger } from '@ledger-api/observability';
import { readFeedFrame } from './feed-frame';
import { HeadChain, type HeadBlock } from './head-chain';

export type { HeadBlock } from './head-chain';

/** `live`: the feed said where the area stands and is connected; anything else: the edge must not answer for the area. */
export type AreaFeedStatus = 'connecting' | 'live' | 'lost';

/** What the edge answers at: the newest commit, and the block the area stands at after it. */
export interface EdgeState {
  commit: CommitId;
  head: HeadBlock;
}

export interface AreaFeedOptions {
  area: string;
  /** The live stream of each replica of the service, e.g. `http://127.0.0.1:4102/nft/events`: one is followed, the next after each failure. */
  urls: readonly string[];
  /** How many recent events are kept to resume clients from without asking the service. */
  bufferedEvents: number;
  logger: Logger;
  /** Waits before connecting again, doubled per failure up to maxReconnectMs. */
  reconnectMs?: number;
  maxReconnectMs?: number;
  /** How long a replay from the service may take before a client is reset instead. */
  replayTimeoutMs?: number;
  /** Told whenever the state changes. */
  onState?(state: AreaFeedStatus): void;
  /** Told how long the feed trailed a service that answered from a commit it had not announced yet. */
  onCaughtUp?(seconds: number): void;
  /** Told of each malformed frame the service sent (see readFeedFrame). */
  onMalformedFrame?(): void;
}

/**
 * One area's feed at the gateway: the service's live stream, followed from one
 * connection. It tells the edge cache which commit is the newest (and whether it can be
 * trusted at all), and serves the gateway's own live streams, fanned out from it.
 *
 * A (re)connection opens on the area's position, so the feed never trusts what it has not
 * been told since it connected. Clients are resumed from the recent events it keeps, or
 * from the service's commit log, which any replica of the area can replay.
 */
export class AreaFeed implements LiveEventSource {
  private state: AreaFeedStatus = 'connecting';
  private newest: StreamEvent | undefined;
  /** Events since the position the feed connected at, oldest first. */
  private recent: StreamEvent[] = [];
  private readonly chain: HeadChain;
  private bufferedSince: CommitId | undefined;
  /** A commit a service answered from before the feed announced it, and when that was first seen. */
  private ahead: { commit: CommitId; seenAt: number } | undefined;
  private readonly listeners = new Set<(event: StreamEvent | undefined) => void>();
  private connection: EventStreamConnection | undefined;
  /** Counts connections: what one reports after the feed gave it up is no news. */
  private attempt = 0;
  private reconnectTimer: NodeJS.Timeout | undefined;
  private failures = 0;
  /** Which of the replicas' streams is followed. */
  private replica = 0;
  private stopped = false;
  // Its own connections: the proxy's pool closes sockets that stay busy this long.
  private readonly agent = new Agent({ keepAlive: false });

  constructor(private readonly options: AreaFeedOptions) {
    this.chain = new HeadChain(options.bufferedEvents + 1);
  }

  start(): void {
    void this.connect();
  }

  stop(): void {
    this.stopped = true;
    clearTimeout(this.reconnectTimer);
    this.dropConnection();
    this.agent.destroy();
    this.endListeners();
  }

  /**
   * The commit the edge may answer at: the newest, while the feed is live and no service
   * has answered from a later one (the feed then trails, and the area is proxied until it catches up).
   */
  edgeCommit(): CommitId | undefined {
    return this.state === 'live' && !this.ahead ? this.newest?.commit : undefined;
  }

  /** The edge commit with the block the area stands at after it; undefined while either is not known (right after a revert the feed did not see the block below of). */
  edgeState(): EdgeState | undefined {
    const commit = this.edgeCommit();
    const head = this.chain.head();
    return commit && head && { commit, head };
  }

  /** A service answered from `commit`: a commit the feed has not announced means it trails. */
  noteServedCommit(commit: CommitId): void {
    const newest = this.newest?.commit;
    if (newest && commitReaches(newest, commit)) return;
    if (this.ahead && commitReaches(this.ahead.commit, commit)) return;
    this.ahead = { commit, seenAt: this.ahead?.seenAt ?? performance.now() };
  }

  status(): AreaFeedStatus {
    return this.state;
  }

  position(): Omit<StreamEvent, 'event'> {
    const newest = this.newest ?? { commit: { readModel: '', generation: 0 }, data: { height: 0, id: '' } };
    const { height, id } = newest.data;
    return { commit: newest.commit, data: { height, id } };
  }

  async eventsAfter(commit: CommitId): Promise<StreamEvent[] | undefined> {
    const since = this.bufferedSince;
    if (since && commitReaches(commit, since)) {
      return this.recent.filter((event) => event.commit.generation > commit.generation);
    }
    return this.replayFromService(commit);
  }

  subscribe(listener: (event: StreamEvent | undefined) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private async connect(): Promise<void> {
    if (this.stopped) return;
    this.attempt += 1;
    const attempt = this.attempt;
    const current = () => attempt === this.attempt;
    const handlers = {
      onEvent: (event: ReceivedEvent) => {
        if (current()) this.received(event);
      },
      onEnd: (error?: Error) => {
        if (current()) this.lost(error);
      },
    };
    try {
      const connection = await openEventStream({ url: this.url(), agent: this.agent }, handlers);
      if (!current()) return connection.close();
      this.connection = connection;
      if (connection.status !== 200) this.lost(new Error(`the service answered ${connection.status}`));
    } catch (error) {
      if (current()) this.lost(error as Error);
    }
  }

  private received(received: ReceivedEvent): void {
    const frame = readFeedFrame(received);
    if (frame.kind === 'other') return;
    if (frame.kind === 'malformed') return this.rejected(frame.reason);
    const { event } = frame;
    if (event.event === 'position' || event.event === 'reset') return this.opened(event);
    this.chain.follow(event);
    this.advanceTo(event);
    this.recent.push(event);
    // The events kept are all those after the one dropped last.
    if (this.recent.length > this.options.bufferedEvents) this.bufferedSince = this.recent.shift()?.commit;
    for (const listener of this.listeners) listener(event);
  }

  /** The first event of a connection: where the area stands now. */
  private opened(position: StreamEvent): void {
    const previous = this.newest?.commit;
    const unchanged = previous && formatCommitId(previous) === formatCommitId(position.commit);
    // A commit of another read model than the one the area now serves will never be announced.
    if (this.ahead && this.ahead.commit.readModel !== position.commit.readModel) this.ahead = undefined;
    if (!unchanged) {
      // What came while the feed was away is not in hand: its clients resume through the service.
      this.endListeners();
      this.recent = [];
      this.chain.startAt(position.data);
      this.advanceTo(position);
      this.bufferedSince = position.commit;
    }
    this.failures = 0;
    this.setState('live');
  }

  private advanceTo(event: StreamEvent): void {
    this.newest = event;
    if (this.ahead && commitReaches(event.commit, this.ahead.commit)) {
      this.options.onCaughtUp?.((performance.now() - this.ahead.seenAt) / 1e3);
      this.ahead = undefined;
    }
  }

  private url(): string {
    return this.options.urls[this.replica % this.options.urls.length];
  }

  /** Nothing more the connection says is listened to. */
  private dropConnection(): void {
    this.attempt += 1;
    this.connection?.close();
    this.connection = undefined;
  }

  /** A malformed frame: nothing that stream says can be trusted, so it is given up like a lost one. */
  private rejected(reason: string): void {
    this.reportMalformed(reason, 'commit feed sent a malformed frame; proxying the area until it is back');
    this.reconnect();
  }

  private reportMalformed(reason: string, message: string): void {
    this.options.logger.warn({ area: this.options.area, reason }, message);
    this.options.onMalformedFrame?.();
  }

  private lost(error?: Error): void {
    // While a service starts the feed is refused again and again: only losing a live feed is news.
    if (this.state === 'live' && !this.stopped)
      this.options.logger.warn({ area: this.options.area, err: error }, 'commit feed lost; proxying the area until it is back');
    this.reconnect();
  }

  private reconnect(): void {
    this.dropConnection();
    if (this.stopped) return;
    // The replica may be stopping: the next connection goes to another, if the area has more than one.
    this.replica = (this.replica + 1) % this.options.urls.length;
    this.setState('lost');
    const base = this.options.reconnectMs ?? 250;
    const delay = Math.min(base * 2 ** this.failures, this.options.maxReconnectMs ?? 2_000);
    this.failures += 1;
    clearTimeout(this.reconnectTimer);
    this.reconnectTimer = setTimeout(() => void this.connect(), delay);
  }

  private setState(state: AreaFeedStatus): void {
    if (state === this.state) return;
    this.state = state;
    this.options.onState?.(state);
  }

  private endListeners(): void {
    for (const listener of [...this.listeners]) listener(undefined);
  }

  /** Asks the service for the events after `commit`, up to where this feed's own events begin. */
  private replayFromService(commit: CommitId): Promise<StreamEvent[] | undefined> {
    const joinAt = this.bufferedSince;
    if (!joinAt || joinAt.readModel !== commit.readModel) return Promise.resolve(undefined);
    return new Promise((resolve) => {
      const replayed: StreamEvent[] = [];
      let connection: EventStreamConnection | undefined;
      const finish = (events: StreamEvent[] | undefined) => {
        clearTimeout(timer);
        connection?.close();
        resolve(events);
      };
      const timer = setTimeout(() => finish(undefined), this.options.replayTimeoutMs ?? 5_000);
      const onEvent = (received: ReceivedEvent) => {
        const frame = readFeedFrame(received);
        if (frame.kind === 'other') return;
        if (frame.kind === 'malformed') {
          this.reportMalformed(frame.reason, 'a replay from the service sent a malformed frame; the client is reset');
          return finish(undefined);
        }
        const { event } = frame;
        if (event.event === 'reset' || event.commit.readModel !== commit.readModel) return finish(undefined);
        replayed.push(event);
        // From here on this feed's own events take over.
        if (event.commit.generation >= joinAt.generation) finish([...replayed, ...this.recent]);
      };
      openEventStream(
        { url: this.url(), agent: this.agent, headers: { 'last-event-id': formatCommitId(commit) } },
        { onEvent, onEnd: () => finish(undefined) },
      ).then(
        (opened) => (connection = opened),
        () => finish(undefined),
      );
    });
  }
}
