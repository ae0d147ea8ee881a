import { LedgerFault } from '../fault';
import { parseLedgerEvent } from '../events';
import { assertReadable, readLines } from '../lines';
import type { LedgerPosition } from '../types';
import type { LedgerEventHandler, LedgerSource } from './types';

/**
 * Replays a JSON Lines ledger file in-process. The stream sequence of an event
 * is its 1-based line number, so a stored position resumes at the next line.
 */
export class FileLedgerSource implements LedgerSource {
  private stopping = false;
  private finished = false;
  private active: Promise<void> | undefined;

  constructor(readonly path: string) {}

  run(handler: LedgerEventHandler, from: LedgerPosition): Promise<void> {
    this.stopping = false;
    this.finished = false;
    this.active = this.replay(handler, from);
    return this.active;
  }

  async stop(): Promise<void> {
    this.stopping = true;
    await this.active?.catch(() => undefined);
  }

  async caughtUp(): Promise<boolean> {
    return this.finished;
  }

  private async replay(handler: LedgerEventHandler, from: LedgerPosition): Promise<void> {
    try {
      await assertReadable(this.path);
    } catch (error) {
      throw new LedgerFault((error as Error).message);
    }
    for await (const { number, text } of readLines(this.path)) {
      if (this.stopping) return;
      if (number <= from.streamSeq) continue;
      await handler(parseLedgerEvent(text, `${this.path} line ${number}`), number, text);
    }
    this.finished = !this.stopping;
  }
}
