import { Agent, type AgentOptions, type ClientRequestArgs } from 'node:http';
import type { Socket } from 'node:net';
import type { Duplex } from 'node:stream';

export interface SocketRecycling {
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
}

/**
 * A keep-alive agent whose connections each live a bounded time and number of answers.
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
 */
export class RecyclingAgent extends Agent {
  private readonly lives = new WeakMap<Duplex, SocketLife>();
  private readonly now: () => number;

  constructor(
    options: AgentOptions,
    private readonly recycling: SocketRecycling,
  ) {
    super(options);
    this.now = recycling.now ?? (() => performance.now());
    // Before the agent's own listener, which hands the connection on or keeps it.
    if (recycling.maxAgeMs > 0 || recycling.maxRequests > 0) this.prependListener('free', (socket: Socket) => this.retireIfDue(socket));
  }

  override createConnection(options: ClientRequestArgs, callback?: (err: Error | null, stream: Duplex) => void): Duplex | null | undefined {
    const socket = super.createConnection(options, callback);
    if (socket) this.lives.set(socket, { bornAt: this.now(), answers: 0 });
    return socket;
  }

  private retireIfDue(socket: Socket): void {
    const life = this.lives.get(socket);
    // The agent also frees a connection it has just opened for a waiting request: that one has answered nothing yet.
    if (!life || socket.bytesRead === 0) return;
    life.answers += 1;
    const { maxAgeMs, maxRequests } = this.recycling;
    const tooOld = maxAgeMs > 0 && this.now() - life.bornAt >= maxAgeMs;
    const worn = maxRequests > 0 && life.answers >= maxRequests;
    // The agent finds it no longer writable: it opens a new connection for a waiting request instead.
    if (tooOld || worn) socket.destroy();
  }
}
