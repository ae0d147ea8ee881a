import { readStoredLedgerState, type ConsumerBacklog, type ProjectorState } from '@ledger-api/ledger';
import type { Store } from '@ledger-api/store';
import { readStoredProjectorState, reportedState } from './projector-record';

/** What NATS tells of an area: its consumers, and who holds its projector lease. */
export interface NatsStatusSource {
  consumers(area: string): Promise<ConsumerBacklog[]>;
  /** The holder's name, or null when nobody holds it. */
  leaseHolder(area: string): Promise<string | null>;
}

/** Where one area's read model is read from: its shared store, or the process that holds it (an embedded store). */
export interface AreaStatusSources {
  area: string;
  /** `mongodb/<database>` or `embedded@<url>`. */
  storeName: string;
  store?: Pick<Store, 'collection'>;
  /** The /readyz body of the process running the area's projector. */
  processReadiness?: () => Promise<Record<string, unknown>>;
  nats?: NatsStatusSource;
  /** Projectors over a shared store take a lease; a process of its own (embedded store) does not. */
  leased: boolean;
}

export interface AreaStatus {
  area: string;
  store: string;
  position?: { height: number; blockId: string; generation: number; commitInFlight: boolean; streamSeq?: number };
  projector?: { state: string; fault?: string; reportedBy?: string; updatedAt?: string; caughtUpAt?: string };
  /** Undefined without NATS. */
  consumers?: ConsumerBacklog[];
  /** Undefined when no lease is used; null when nobody holds it. */
  leaseHolder?: string | null;
  /** What could not be read, and why. */
  problems: string[];
}

/** Reads everything there is to say of one area; a part that cannot be read is named in `problems`, not thrown. */
export async function readAreaStatus(sources: AreaStatusSources): Promise<AreaStatus> {
  const status: Omit<AreaStatus, 'problems'> = { area: sources.area, store: sources.storeName };
  const problems: string[] = [];
  const attempt = async (what: string, read: () => Promise<void>) => {
    await read().catch((error: unknown) => problems.push(`${what}: ${error instanceof Error ? error.message : String(error)}`));
  };
  const { store, processReadiness, nats, area } = sources;
  if (store) {
    await attempt('store', async () => {
      Object.assign(status, await fromStore(store));
    });
  }
  if (processReadiness) {
    await attempt('service', async () => {
      Object.assign(status, fromReadiness(await processReadiness()));
    });
  }
  if (nats) {
    await attempt('consumers', async () => {
      status.consumers = await nats.consumers(area);
    });
    if (sources.leased) {
      await attempt('lease', async () => {
        status.leaseHolder = await nats.leaseHolder(area);
      });
    }
  }
  return { ...status, problems };
}

async function fromStore(store: Pick<Store, 'collection'>): Promise<Pick<AreaStatus, 'position' | 'projector'>> {
  const [{ position, generation, commitInFlight }, projector] = await Promise.all([readStoredLedgerState(store), readStoredProjectorState(store)]);
  return { position: { ...position, generation, commitInFlight }, projector };
}

/** The body projectorReadiness answers with. */
function fromReadiness(body: Record<string, unknown>): Pick<AreaStatus, 'position' | 'projector'> {
  if (typeof body.projector !== 'string') throw new Error('the process runs no projector');
  const { height, blockId, generation, commitInFlight, fault } = body as {
    height: number;
    blockId: string;
    generation: number;
    commitInFlight: boolean;
    fault?: string;
  };
  const state = reportedState(body.projector as ProjectorState) ?? body.projector;
  return { position: { height, blockId, generation, commitInFlight }, projector: { state, ...(fault && { fault }) } };
}

/** An area has trouble when its projector faulted or a part could not be read. */
export function hasTrouble(status: AreaStatus): boolean {
  return status.problems.length > 0 || status.projector?.fault !== undefined;
}

const COLUMNS = ['AREA', 'STORE', 'HEIGHT', 'BLOCK', 'GEN', 'COMMIT', 'PENDING', 'PROJECTOR', 'LEASE HOLDER'] as const;

function row({ area, store, position, projector, consumers, leaseHolder }: AreaStatus): string[] {
  const pending = consumers === undefined ? '-' : consumers.length === 0 ? 'no consumer' : consumers.map((consumer) => consumer.pending).join(' ');
  const lease = leaseHolder === undefined ? '-' : (leaseHolder ?? 'nobody');
  if (!position) return [area, store, '?', '?', '?', '?', pending, projector?.state ?? '?', lease];
  const commit = position.commitInFlight ? 'in flight' : 'settled';
  const block = position.blockId ? `${position.blockId.slice(0, 12)}…` : '-';
  return [area, store, String(position.height), block, String(position.generation), commit, pending, projector?.state ?? 'unreported', lease];
}

/** A table with a row per area, then a line per fault and per problem. */
export function formatStatusTable(statuses: AreaStatus[]): string {
  const rows = [[...COLUMNS], ...statuses.map(row)];
  const widths = COLUMNS.map((_, column) => Math.max(...rows.map((cells) => cells[column].length)));
  const lines = rows.map((cells) =>
    cells
      .map((cell, column) => cell.padEnd(widths[column]))
      .join('  ')
      .trimEnd(),
  );
  for (const status of statuses) {
    if (status.projector?.fault) lines.push(`${status.area}: fault: ${status.projector.fault}`);
    for (const problem of status.problems) lines.push(`${status.area}: cannot read the ${problem}`);
  }
  return `${lines.join('\n')}\n`;
}
