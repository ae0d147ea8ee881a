import { JetStreamApiCodes, JetStreamApiError, type JetStreamManager } from '@nats-io/jetstream';
import type { LedgerEventKind } from './types';

export const DEFAULT_LEDGER_STREAM = 'LEDGER';
/** Events go to `<prefix>.applied` and `<prefix>.reverted`; consumers filter on `<prefix>.>`. */
export const DEFAULT_SUBJECT_PREFIX = 'ledger.block';

export function ledgerSubject(prefix: string, kind: LedgerEventKind): string {
  return `${prefix}.${kind}`;
}

export function isJetStreamApiError(error: unknown, code: number): boolean {
  return error instanceof JetStreamApiError && error.code === code;
}

/** Creates the ledger stream unless it exists; safe when several processes start at once. */
export async function ensureLedgerStream(jsm: JetStreamManager, stream: string, subjectPrefix: string): Promise<void> {
  try {
    await jsm.streams.info(stream);
    return;
  } catch (error) {
    if (!isJetStreamApiError(error, JetStreamApiCodes.StreamNotFound)) throw error;
  }
  try {
    await jsm.streams.add({ name: stream, subjects: [ledgerSubject(subjectPrefix, 'applied'), ledgerSubject(subjectPrefix, 'reverted')] });
  } catch (error) {
    // Another process may have created it between the lookup and the add.
    await jsm.streams.info(stream).catch(() => Promise.reject(error));
  }
}
