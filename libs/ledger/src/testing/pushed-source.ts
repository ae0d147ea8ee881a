import type { LedgerEventHandler, LedgerSource } from '../sources/types';
import type { LedgerEvent, LedgerPosition } from '../types';

/** A ledger source a test feeds as it goes: pushed events are the next stream messages (sequence 1, 2, ...). */
export class PushedLedgerSource implements LedgerSource {
  private readonly events: LedgerEvent[] = [];
  private handled = 0;
  private stopping = false;
  private wake: () => void = () => undefined;
  private running: Promise<void> | undefined;

  push(...events: LedgerEvent[]): void {
    this.events.push(...events);
    this.wake();
  }

  run(handler: LedgerEventHandler, from: LedgerPosition): Promise<void> {
    this.stopping = false;
    this.running = this.consume(handler, from.streamSeq);
    return this.running;
  }

  async stop(): Promise<void> {
    this.stopping = true;
    this.wake();
    await this.running?.catch(() => undefined);
  }

  async caughtUp(): Promise<boolean> {
    return this.handled >= this.events.length;
  }

  /** Pushed events not handled yet, the one in hand included (see SourceBacklog). */
  async pendingEvents(): Promise<number | undefined> {
    return this.running ? this.events.length - this.handled : undefined;
  }

  async newestBlockTime(): Promise<number | undefined> {
    const newest = this.events.findLast((event) => event.event === 'block.applied');
    return newest?.event === 'block.applied' ? newest.block.timestamp.unix : undefined;
  }

  private async consume(handler: LedgerEventHandler, after: number): Promise<void> {
    this.handled = after;
    while (!this.stopping) {
      if (this.handled < this.events.length) {
        await handler(this.events[this.handled], this.handled + 1);
        this.handled += 1;
      } else {
        await new Promise<void>((resolve) => (this.wake = resolve));
      }
    }
  }
}
