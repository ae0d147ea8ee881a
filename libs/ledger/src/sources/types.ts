import type { LedgerEvent, LedgerPosition } from '../types';

/**
 * Handles one event; the source moves on (and acknowledges it) only after this
 * resolves. `text` is the event as the source read it (a file line, a message
 * payload): whoever keeps the event a while can keep that text instead of
 * writing its own.
 */
export type LedgerEventHandler = (event: LedgerEvent, streamSeq: number, text?: string) => Promise<void>;

/** Where ledger events come from: a JSON Lines file, or a JetStream stream. */
export interface LedgerSource {
  /**
   * Hands the events after `from.streamSeq` to the handler one at a time, in
   * order. Resolves when stop() was called or a finite source is exhausted;
   * rejects with the handler's error (nothing after it is handled), with a
   * LedgerFault for an event that cannot be read, or with DeliveryInterrupted
   * when deliveries may have been lost (read again from the stored position).
   * May be called again after it settled, to resume from a later position.
   */
  run(handler: LedgerEventHandler, from: LedgerPosition): Promise<void>;
  /** Stops after the event in hand is handled; resolves once run() has settled. */
  stop(): Promise<void>;
  /** True once every event the source holds has been handled. */
  caughtUp(): Promise<boolean>;
}
