import { Agent, type AgentOptions, type ClientRequestArgs } from 'node:http';
import type { Socket } from 'node:net';
import type { Duplex } from 'node:stream';

export interface SocketRecycling {
  /** A connection idle in the pool this long is closed, within a second more; 0: however long it idles. */
  idleMs: number;
  /** A connection is closed after the first answer it completes at this age or older; 0: at no age. */
  maxAgeMs: number;
  /** A connection is closed after this many answers; 0: after no count. */
  maxRequests: number;
  /** Monotonic milliseconds; performance.now when absent. */
  now?: () => number;
}

interface SocketLife {
  bornAt: number;
  answers: number;
  /** When it last went back to the pool. */
  freedAt: number;
}

// How often idle connections are looked for, at most: a connection closes at most this long after its idle time is up.
const MAX_IDLE_CHECK_INTERVAL_MS = 1_000;

/**
 * A keep-alive agent whose connections each live a bounded time and number of answers,
 * and are closed when they idle in the pool too long.
 *
 * Behind one address that balances connections, not requests (a Kubernetes Service),
 * a kept-alive connection stays with the replica it first reached: a replica added under
 * steady load would only ever get the connections opened for bursts. Retiring every
 * connection after a while sends its next request through the balancer again, so the
 * area's requests spread over whichever replicas it holds now.
 *
 * A connection is retired only once its answer is complete and before the agent hands it
 * to the next request or keeps it: it never carries a request while it closes, so
 * retiring it cannot fail one.
 *
 * Idle connections are closed by a check of the pool every so often, not by Node's socket
 * timeout (the agent's `timeout`): that one runs while a connection carries a request too,
 * and costs every request a listener added and taken off and a timer renewed at each read
 * and write (bench-results/gateway-costs-2026-11-28.md, seventh round).
 */
export class RecyclingAgent extends Agent {
  private readonly lives = new WeakMap<Duplex, SocketLife>();
  private readonly now: () => number;
  private idleCheck: NodeJS.Timeout | undefined;

  constructor(
    options: AgentOptions,
    private readonly recycling: SocketRecycling,
  ) {
    super(options);
    this.now = recycling.now ?? (() => performance.now());
    // Before the agent's own listener, which hands the connection on or keeps it.
    this.prependListener('free', (socket: Socket) => this.onFree(socket));
  }

  override createConnection(options: ClientRequestArgs, callback?: (err: Error | null, stream: Duplex) => void): Duplex | null | undefined {
    const socket = super.createConnection(options, callback);
    if (socket) this.lives.set(socket, { bornAt: this.now(), answers: 0, freedAt: 0 });
    return socket;
  }

  override destroy(): void {
    clearTimeout(this.idleCheck);
    super.destroy();
  }

  private onFree(socket: Socket): void {
    const life = this.lives.get(socket);
    if (!life) return;
    life.freedAt = this.now();
    this.retireIfDue(socket, life, life.freedAt);
    if (this.recycling.idleMs > 0) this.checkIdleSoon();
  }

  /** Only while connections may idle in the pool: an agent without any keeps no timer. */
  private checkIdleSoon(): void {
    if (this.idleCheck !== undefined) return;
    const interval = Math.min(this.recycling.idleMs, MAX_IDLE_CHECK_INTERVAL_MS);
    this.idleCheck = setTimeout(() => {
      this.idleCheck = undefined;
      if (this.closeIdle() > 0) this.checkIdleSoon();
    }, interval).unref();
  }

  /** Closes the pool's connections that idled too long; answers how many it keeps. */
  private closeIdle(): number {
    const idleSince = this.now() - this.recycling.idleMs;
    let kept = 0;
    for (const pool of Object.values(this.freeSockets)) {
      if (!pool) continue;
      // From the end, so that taking one out leaves the rest to look at where they were.
      for (let index = pool.length - 1; index >= 0; index -= 1) {
        const socket = pool[index];
        if ((this.lives.get(socket)?.freedAt ?? -Infinity) > idleSince) {
          kept += 1;
          continue;
        }
        // Out of the pool first: until its close is seen, the agent could still hand it to a request.
        pool.splice(index, 1);
        socket.destroy();
      }
    }
    return kept;
  }

  private retireIfDue(socket: Socket, life: SocketLife, now: number): void {
    // The agent also frees a connection it has just opened for a waiting request: that one has answered nothing yet.
    if (socket.bytesRead === 0) return;
    life.answers += 1;
    const { maxAgeMs, maxRequests } = this.recycling;
    const tooOld = maxAgeMs > 0 && now - life.bornAt >= maxAgeMs;
    const worn = maxRequests > 0 && life.answers >= maxRequests;
    // The agent finds it no longer writable: it opens a new connection for a waiting request instead.
    if (tooOld || worn) socket.destroy();
  }
}
