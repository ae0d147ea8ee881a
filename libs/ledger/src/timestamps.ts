import type { Timestamp } from './types';

/** 2017-03-21T13:00:00.000Z, where the ledger's `epoch` timestamps count from. */
export const LEDGER_EPOCH_UNIX = 1490101200;

/** The block timestamp of a Unix time: seconds since the ledger epoch, Unix seconds and ISO text. */
export function ledgerTimestamp(unix: number): Timestamp {
  return { epoch: unix - LEDGER_EPOCH_UNIX, unix, human: new Date(unix * 1000).toISOString() };
}
