import { LEDGER_COMMIT_HEADER } from './live-events';

/**
 * Whether the platform's own caches (a service's page cache and the gateway's edge cache)
 * may keep an answer: a service says so on the answer, both caches read it, and the gateway
 * strips it before the answer leaves. An answer without it is never kept, whatever its
 * Cache-Control says: that header is what clients and CDNs are told, and nothing more.
 */
export const STORABLE_HEADER = 'x-ledger-storable';

/** The value that marks an answer storable. */
export const STORABLE = '1';

/** Whether a header value (as Node or Koa reads it) marks the answer storable. */
export function isStorable(value: unknown): boolean {
  return value === STORABLE;
}

/**
 * How long a storable answer holds, as a service tells the platform's caches: with the value
 * UNTIL_DATA_CHANGES, until a commit changes the area's data, whatever blocks come that do not
 * (its X-Block-Height and X-Block-Id are then the head's when it is sent, not part of the page);
 * without it, for the commit it was rendered at only (an answer that reads the height itself:
 * expiry flags, a keyset walk's links).
 */
export const VALIDITY_HEADER = 'x-ledger-validity';

export const UNTIL_DATA_CHANGES = 'data';

/** Whether a header value (as Node or Koa reads it) says the answer holds until the area's data changes. */
export function holdsUntilDataChanges(value: unknown): boolean {
  return value === UNTIL_DATA_CHANGES;
}

/** What a service tells the gateway alone: the gateway strips these from every answer. */
export const INTERNAL_HEADERS: readonly string[] = [LEDGER_COMMIT_HEADER, STORABLE_HEADER, VALIDITY_HEADER];
