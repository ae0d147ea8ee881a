/**
 * The ledger event contract (docs/ledger-events.md, section 2), and the projector's
 * status, which its observers report.
 */

export interface Timestamp {
  epoch: number;
  unix: number;
  human: string;
}

/** A ledger transaction in its JSON form, exactly as received. */
export interface Transaction {
  id: string;
  version?: number;
  network?: number;
  typeGroup: number;
  type: number;
  nonce: string;
  senderPublicKey: string;
  fee: string;
  amount: string;
  recipientId?: string;
  vendorField?: string;
  // Its members differ by type; projections read theirs through a schema (parseTransaction).
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- the demo generator and its audit build and read them freely
  asset?: Record<string, any>;
  signature?: string;
  signatures?: string[];
  [member: string]: unknown;
}

export interface Block {
  id: string;
  height: number;
  previousBlock: string;
  timestamp: Timestamp;
  transactions: Transaction[];
}

export interface BlockRef {
  id: string;
  height: number;
}

export type LedgerEventKind = 'applied' | 'reverted';

export type LedgerEvent = { event: 'block.applied'; block: Block } | { event: 'block.reverted'; block: BlockRef };

/** Where a read model stands in the ledger: stored with the data it describes. */
export interface LedgerPosition {
  height: number;
  blockId: string;
  /** Stream sequence of the last event processed (JetStream sequence, or line number of a file). */
  streamSeq: number;
}

export const EMPTY_POSITION: LedgerPosition = { height: 0, blockId: '', streamSeq: 0 };

/** 'standby': waiting for the lease while another process writes the shared read model. */
export type ProjectorState = 'starting' | 'standby' | 'catching-up' | 'caught-up' | 'faulted' | 'stopped';

export interface ProjectorStatus {
  state: ProjectorState;
  position: LedgerPosition;
  fault?: string;
}
