import { embeddedEngineOf, type CollectionSpec, type EmbeddedEngine, type Write } from '@ledger-api/store';
import type { Logger } from '@ledger-api/observability';
import { LedgerFault, LedgerGapFault } from '../fault';
import { EMPTY_POSITION, type Block, type BlockRef, type LedgerEvent, type LedgerPosition } from '../types';
import type { HandleOutcome, LedgerStore, Projection } from './types';
import { RecentBlocks } from './recent-blocks';
import { COMMIT_LOG_SPEC, commitLogWrites, DEFAULT_COMMIT_LOG_RETENTION, type CommitEntry } from './commit-log';
import { newReadModelName, POSITION_COLLECTION, readStoredLedgerState, storedLedgerStateWrite, type StoredLedgerState } from './stored-position';
import { claimReadModel, commitFenced, type HandedOver } from './fenced-commit';
import { restoreWrites, UNDO_COLLECTION, undoRecordId, undoSteps, type UndoRecord } from './undo';
import { UNDO_TOUCHES_SPEC, undoTouchWrites } from './undo-touches';
import { BlockWriteSet, type DocumentReader } from './write-set';
import { observeHandling, type ProjectionObserver } from '../observers';

const BOOKKEEPING_COLLECTIONS: CollectionSpec[] = [
  { name: POSITION_COLLECTION, indexes: [] },
  { name: UNDO_COLLECTION, indexes: [{ key: { height: 1 } }] },
  UNDO_TOUCHES_SPEC,
  COMMIT_LOG_SPEC,
];

export type PositionListener = (position: LedgerPosition) => void;

export interface ProjectionRunnerOptions {
  store: LedgerStore;
  projection: Projection;
  logger: Logger;
  /** How many of the most recent blocks stay revertible (and verifiable as duplicates). */
  undoRetention?: number;
  /** How many of the most recent commits the read model's commit log keeps (see CommitRecord). */
  commitLogRetention?: number;
  /**
   * Whether the documents each undo record touched are indexed (undo-touches.ts), which reads at a
   * past height need; on unless turned off (HISTORY_BLOCKS=0), when records say they have none.
   */
  indexTouches?: boolean;
  /** Told of every event handled, with its outcome and duration. */
  observer?: ProjectionObserver;
  /**
   * Freezes every document a projection reads or puts, so that one changing a
   * document in place fails at once rather than corrupt the store's indexes and
   * undo records. On unless turned off: processes turn it off in production
   * only (NODE_ENV=production), where freezing would cost replay time.
   */
  guardDocuments?: boolean;
}

/**
 * Applies and reverts ledger blocks on a projection's read model. A block is
 * committed as: its undo record, then its data writes, then the position. A
 * crash in between leaves an undo record above the stored position, which the
 * next start (or the next event after a failed commit) rolls back, so the
 * store never keeps half a block. Where the store has transactions (MongoDB
 * as a replica set) the steps of one commit run in one, and no reader ever
 * sees half a block.
 *
 * Elsewhere readers that do not wait for a commit can see half of one, so every
 * commit (apply, revert, or rollback) is bracketed for them in the position
 * document: marked in flight with its first write, and settled with a bumped
 * cache generation by its last (see StoredLedgerState). A commit that writes no data
 * (a block with nothing for the area, or the revert of one) leaves `changedAt`, the
 * generation of the last commit that did, where it was: pages keyed by it stay valid.
 *
 * Events must be handed over one at a time, in stream order.
 */
export class ProjectionRunner {
  private readonly store: LedgerStore;
  private readonly projection: Projection;
  private readonly logger: Logger;
  private readonly undoRetention: number;
  private readonly commitLogRetention: number;
  private readonly indexTouches: boolean;
  private readonly observer: ProjectionObserver | undefined;
  private readonly guardDocuments: boolean;
  /** The store's embedded engine, where it has one: the runner then shares documents with it rather than copy them. */
  private readonly engine: EmbeddedEngine | undefined;
  private readonly readDocument: DocumentReader;
  private readonly listeners = new Set<PositionListener>();
  private readonly recentBlocks = new RecentBlocks();
  private current: LedgerPosition = EMPTY_POSITION;
  private generation = 0;
  /** The generation of the newest commit that changed the read model's data (see StoredLedgerState). */
  private changedAt = 0;
  private commitInFlight = false;
  private readModel = '';
  /** The newest lease token the read model was claimed with, as stored with the position. */
  private fence = 0;
  /** The token this runner writes under, once it claimed the read model with its lease. */
  private claimedToken: number | undefined;
  private initialised = false;
  private needsRecovery = false;

  constructor({
    store,
    projection,
    logger,
    undoRetention = 10_000,
    commitLogRetention = DEFAULT_COMMIT_LOG_RETENTION,
    indexTouches = true,
    observer,
    guardDocuments = true,
  }: ProjectionRunnerOptions) {
    for (const [name, value] of Object.entries({ undoRetention, commitLogRetention })) {
      if (!Number.isSafeInteger(value) || value < 1) throw new RangeError(`${name} must be a positive integer, got ${value}`);
    }
    this.commitLogRetention = commitLogRetention;
    this.indexTouches = indexTouches;
    this.store = store;
    this.projection = projection;
    this.logger = logger.child({ area: projection.area });
    this.undoRetention = undoRetention;
    this.observer = observer;
    this.guardDocuments = guardDocuments;
    this.engine = embeddedEngineOf(store);
    const engine = this.engine;
    this.readDocument = engine
      ? (collection, id) => engine.findShared(collection, id)
      : (collection, id) => store.collection(collection).findById(id);
  }

  get position(): LedgerPosition {
    return this.current;
  }

  /** The position with its cache generation, as stored once the commit in hand (if any) is settled. */
  get ledgerState(): StoredLedgerState {
    const { current: position, generation, changedAt, commitInFlight, readModel, fence } = this;
    return { position, generation, changedAt, commitInFlight, readModel, fence };
  }

  /** Called after every applied or reverted block; returns the unsubscribe function. */
  onChange(listener: PositionListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  async init(): Promise<void> {
    await this.store.ensureCollections([...this.projection.collections, ...BOOKKEEPING_COLLECTIONS]);
    await this.recover();
    if (this.indexTouches) await this.indexUntouchedRecords();
    this.initialised = true;
  }

  /**
   * Records kept while touches were not indexed (a read model shared with a process run with
   * HISTORY_BLOCKS=0) get their touches, so a read at a past height misses none of their changes.
   */
  private async indexUntouchedRecords(): Promise<void> {
    const untouched = await this.undoRecords().find({ untouched: true });
    if (untouched.length === 0) return;
    this.logger.info({ records: untouched.length }, 'indexing the touches of undo records kept without them');
    await this.commit(
      untouched.map(
        ({ untouched: _flag, ...record }) =>
          () =>
            this.undoWrites(record),
      ),
    );
  }

  /**
   * Until caughtUp(), nothing but this runner reads the read model, and it
   * reads by id: the store may leave its indexes' order until then.
   */
  catchingUp(): void {
    this.engine?.deferOrder();
  }

  /** Before the read model is first read by others: the store puts its indexes back in order. */
  caughtUp(): void {
    this.engine?.restoreOrder();
  }

  /**
   * Makes this runner the read model's writer under a lease token, then loads the read model
   * as its previous writer left it. From then on every commit is refused (FencedOut) once a
   * later holder has claimed the read model, and so is the claim if one already has.
   */
  async claim(token: number): Promise<void> {
    await claimReadModel(this.store, token);
    this.claimedToken = token;
    await this.init();
  }

  /**
   * Throws LedgerFault (changing nothing) when the event cannot be followed:
   * LedgerGapFault when it does not follow the stored position.
   */
  handle(event: LedgerEvent, streamSeq: number, text?: string): Promise<HandleOutcome> {
    return observeHandling(this.observer, event, () => this.handleUnobserved(event, streamSeq, text));
  }

  /** `text`: the event as its source read it (see LedgerEventHandler). */
  private async handleUnobserved(event: LedgerEvent, streamSeq: number, text: string | undefined): Promise<HandleOutcome> {
    if (!this.initialised) throw new Error('ProjectionRunner.init() must complete before events are handled');
    if (this.needsRecovery) await this.recover();
    if (streamSeq > 0 && streamSeq <= this.current.streamSeq) return 'duplicate';
    try {
      return event.event === 'block.applied' ? await this.apply(event.block, streamSeq, text) : await this.revert(event.block, streamSeq);
    } catch (error) {
      // A failed write may have left part of a commit behind; roll it back before the next event.
      if (!(error instanceof LedgerFault)) this.needsRecovery = true;
      throw error;
    }
  }

  private async apply(block: Block, streamSeq: number, text?: string): Promise<HandleOutcome> {
    const position = this.current;
    if (block.height <= position.height) return this.appliedAgain(block, streamSeq);
    const dropped = position.height > 0 && block.previousBlock !== position.blockId;
    const revived = dropped ? this.recentBlocks.chainBetween(position, block.previousBlock, block.height - 1) : undefined;
    for (const parent of revived ?? []) {
      this.logger.warn({ height: parent.height, blockId: parent.id }, 're-applying a reverted block the stream delivered only once');
      await this.apply(parent, 0);
    }
    if (revived) return this.apply(block, streamSeq, text);
    if (position.height > 0 && block.height !== position.height + 1) {
      throw new LedgerGapFault(`gap: expected height ${position.height + 1} after block ${position.height} (${position.blockId})`, block);
    }
    if (position.height > 0 && block.previousBlock !== position.blockId) {
      const reason = `unknown previous block ${block.previousBlock}: the last applied block is ${position.height} (${position.blockId})`;
      throw new LedgerGapFault(reason, block);
    }
    const writeSet = new BlockWriteSet(this.readDocument, block, this.guardDocuments);
    for (let sequence = 0; sequence < block.transactions.length; sequence++) {
      await this.projection.applyTransaction(writeSet, block.transactions[sequence], sequence);
    }
    const changes = await writeSet.changes();
    const { after } = changes;
    const changesData = after.length > 0;
    const record: UndoRecord = {
      _id: undoRecordId(block.height),
      height: block.height,
      blockId: block.id,
      previous: { height: position.height, blockId: position.blockId },
      before: undoSteps(changes, this.engine),
      ...(!this.indexTouches && { untouched: true as const }),
    };
    const next = { height: block.height, blockId: block.id, streamSeq: this.nextStreamSeq(streamSeq) };
    const commitRecord = this.commitLogWrites(changesData, {
      kind: 'block.applied',
      position: { height: block.height, blockId: block.id },
      block: { height: block.height, id: block.id },
      timestamp: block.timestamp,
      transactions: block.transactions.filter((tx) => this.projection.projects(tx)).map((tx) => tx.id),
    });
    const pruned = await this.pruneWrites(block.height);
    // Documents built here or put by the projection, which nothing changes once the block is committed.
    await this.commit([
      () => ({ handedOver: [this.beginCommit(), ...this.undoWrites(record), ...commitRecord] }),
      () => ({ handedOver: after }),
      () => ({ handedOver: [this.settledWrite(next, changesData), ...pruned] }),
    ]);
    this.recentBlocks.remember(block, text);
    this.settle(changesData);
    this.moveTo(next, true);
    this.logger.debug({ height: block.height, blockId: block.id, streamSeq, writes: after.length }, 'block applied');
    return 'applied';
  }

  /** A block at or below the position: a duplicate if it is the block stored there, a fork otherwise. */
  private async appliedAgain(block: Block, streamSeq: number): Promise<HandleOutcome> {
    const knownId = await this.knownBlockId(block.height);
    if (knownId === undefined) {
      this.logger.warn({ height: block.height, blockId: block.id }, 'block below the position without an undo record; treated as a duplicate');
    } else if (knownId !== block.id) {
      throw new LedgerGapFault(`height ${block.height} already holds block ${knownId}`, block);
    }
    await this.recordStreamSeq(streamSeq);
    return 'duplicate';
  }

  private async knownBlockId(height: number): Promise<string | undefined> {
    if (height === this.current.height) return this.current.blockId;
    if (height <= this.current.height - this.undoRetention) return undefined;
    const record = await this.undoRecords().findById(undoRecordId(height));
    return record?.blockId;
  }

  private async revert(ref: BlockRef, streamSeq: number): Promise<HandleOutcome> {
    const position = this.current;
    if (ref.height > position.height) {
      this.logger.warn({ height: ref.height, blockId: ref.id, position }, 'revert of a block above the position: already reverted');
      await this.recordStreamSeq(streamSeq);
      return 'duplicate';
    }
    if (ref.height !== position.height || ref.id !== position.blockId) {
      throw new LedgerGapFault(`only the last applied block ${position.height} (${position.blockId}) can be reverted`, ref);
    }
    const record = await this.undoRecords().findById(undoRecordId(ref.height));
    if (!record || record.blockId !== ref.id) throw new LedgerFault('no undo record is kept for this block', ref);
    const next = { ...record.previous, streamSeq: this.nextStreamSeq(streamSeq) };
    const [restore] = await restoreWrites(this.store, [record.before]);
    const changesData = restore.length > 0;
    const commitRecord = this.commitLogWrites(changesData, {
      kind: 'block.reverted',
      position: record.previous,
      block: { height: ref.height, id: ref.id },
    });
    await this.commit([
      () => [this.beginCommit(), ...restore, ...commitRecord],
      () => [this.settledWrite(next, changesData)],
      () => this.undoWrites(record, true),
    ]);
    this.settle(changesData);
    this.moveTo(next, true);
    this.logger.debug({ height: ref.height, blockId: ref.id, streamSeq, writes: record.before.length }, 'block reverted');
    return 'reverted';
  }

  /** Loads the position and rolls back any commit that was interrupted before its position was stored. */
  private async recover(): Promise<void> {
    const stored = await readStoredLedgerState(this.store);
    ({
      position: this.current,
      generation: this.generation,
      changedAt: this.changedAt,
      commitInFlight: this.commitInFlight,
      readModel: this.readModel,
      fence: this.fence,
    } = stored);
    if (!this.readModel) await this.nameReadModel();
    const interrupted = await this.undoRecords().find({ height: { $gt: stored.position.height } });
    if (interrupted.length > 0 || stored.commitInFlight) {
      // A reader that saw the generation before the interrupted commit and reads
      // again after this rollback must see a new one: it may have read half the block.
      const newestFirst = interrupted.sort((a, b) => b.height - a.height);
      for (const record of newestFirst) {
        this.logger.warn({ height: record.height, blockId: record.blockId }, 'rolling back an interrupted block commit');
      }
      const restores = await restoreWrites(
        this.store,
        newestFirst.map((record) => record.before),
      );
      // Counted as a change of data: what readers saw of the interrupted commit is unknown.
      const position = { height: stored.position.height, blockId: stored.position.blockId };
      const commitRecord = this.commitLogWrites(true, { kind: 'rollback', position });
      await this.commit([
        () => [this.beginCommit(), ...commitRecord],
        ...newestFirst.flatMap((record, index) => [() => restores[index], () => this.undoWrites(record, true)]),
        () => [this.settledWrite(stored.position, true)],
      ]);
      this.settle(true);
    }
    this.needsRecovery = false;
  }

  /** A store filled before read models had names (or a new one) gets its name once, before anything else is written. */
  private async nameReadModel(): Promise<void> {
    this.readModel = newReadModelName();
    await this.commit([() => [storedLedgerStateWrite(this.ledgerState)]]);
    this.logger.info({ readModel: this.readModel }, 'read model named');
  }

  /** The record of the commit about to be made, which settles the next generation. */
  private commitLogWrites(changesData: boolean, record: Omit<CommitEntry, 'generation' | 'changedAt'>): Write[] {
    const generation = this.generation + 1;
    return commitLogWrites({ generation, changedAt: changesData ? generation : this.changedAt, ...record }, this.commitLogRetention);
  }

  /** The first write of a commit: readers stop caching pages until it settles (in this process at once). */
  private beginCommit(): Write {
    this.commitInFlight = true;
    return storedLedgerStateWrite({ ...this.ledgerState, commitInFlight: true });
  }

  /** The last write of a commit: the new position under the next generation, which names the data too when the commit changed it. */
  private settledWrite(position: LedgerPosition, changesData: boolean): Write {
    const generation = this.generation + 1;
    const changedAt = changesData ? generation : this.changedAt;
    return storedLedgerStateWrite({ ...this.ledgerState, position, generation, changedAt, commitInFlight: false });
  }

  /** In memory, once the commit's last write is stored. */
  private settle(changesData: boolean): void {
    this.generation += 1;
    if (changesData) this.changedAt = this.generation;
    this.commitInFlight = false;
  }

  private async recordStreamSeq(streamSeq: number): Promise<void> {
    const next = { ...this.current, streamSeq: this.nextStreamSeq(streamSeq) };
    if (next.streamSeq === this.current.streamSeq) return;
    await this.commit([() => [storedLedgerStateWrite({ ...this.ledgerState, position: next, commitInFlight: false })]]);
    this.moveTo(next, false);
  }

  /** A stream sequence of 0 means "not known" and leaves the stored one in place. */
  private nextStreamSeq(streamSeq: number): number {
    return Math.max(this.current.streamSeq, streamSeq);
  }

  /** The undo record that falls out of the kept window with this block, and its touches. */
  private async pruneWrites(height: number): Promise<Write[]> {
    const expired = height - this.undoRetention;
    const record = expired >= 1 ? await this.readDocument(UNDO_COLLECTION, undoRecordId(expired)) : null;
    return record ? this.undoWrites(record as unknown as UndoRecord, true) : [];
  }

  /** An undo record with the index of the documents it touched (if it has one), stored or (`drop`) removed together. */
  private undoWrites(record: UndoRecord, drop = false): Write[] {
    const touches = record.untouched ? [] : undoTouchWrites(record, drop);
    return [{ collection: UNDO_COLLECTION, id: record._id, doc: drop ? null : record }, ...touches];
  }

  /** Every write of the read model goes through here: one commit, refused once this writer is fenced out. */
  private commit(batches: Array<() => Write[] | HandedOver>): Promise<void> {
    return commitFenced(this.store, this.claimedToken, batches, this.engine);
  }

  private undoRecords() {
    return this.store.collection<UndoRecord>(UNDO_COLLECTION);
  }

  private moveTo(position: LedgerPosition, changed: boolean): void {
    this.current = position;
    if (!changed) return;
    for (const listener of this.listeners) {
      try {
        listener(position);
      } catch (error) {
        this.logger.error({ err: error }, 'position listener failed');
      }
    }
  }
}
