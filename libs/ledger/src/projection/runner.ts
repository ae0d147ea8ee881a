import { embeddedEngineOf, type EmbeddedEngine, type Write } from '@ledger-api/store';
import type { Logger } from '@ledger-api/observability';
import { LedgerFault, LedgerGapFault } from '../fault';
import { appliedCommitEntry, appliedUndoRecord, checkFollows, checkRevertible, nextStreamSeq } from './block-steps';
import { BOOKKEEPING_COLLECTIONS, checkRetentions, PositionListeners, type PositionListener, type ProjectionRunnerOptions } from './runner-options';
import { EMPTY_POSITION, type Block, type BlockRef, type LedgerEvent, type LedgerPosition } from '../types';
import type { HandleOutcome, LedgerStore, Projection } from './types';
import { RecentBlocks } from './recent-blocks';
import { commitLogWrites, DEFAULT_COMMIT_LOG_RETENTION, type CommitEntry } from './commit-log';
import { CommitGenerations } from './commit-generations';
import { newReadModelName, readStoredLedgerState, storedLedgerStateWrite, type StoredLedgerState } from './stored-position';
import { claimReadModel, commitFenced, type HandedOver } from './fenced-commit';
import { undoRecordId, undoSteps } from './undo';
import { UndoLog } from './undo-log';
import { BlockWriteSet, type DocumentReader } from './write-set';
import { observeHandling, type ProjectionObserver } from '../observers';

export type { PositionListener, ProjectionRunnerOptions } from './runner-options';

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
 * cache generation by its last (see CommitGenerations).
 *
 * Events must be handed over one at a time, in stream order.
 */
export class ProjectionRunner {
  private readonly store: LedgerStore;
  private readonly projection: Projection;
  private readonly logger: Logger;
  private readonly undo: UndoLog;
  private readonly commitLogRetention: number;
  private readonly observer: ProjectionObserver | undefined;
  private readonly guardDocuments: boolean;
  /** The store's embedded engine, where it has one: the runner then shares documents with it rather than copy them. */
  private readonly engine: EmbeddedEngine | undefined;
  private readonly readDocument: DocumentReader;
  private readonly listeners: PositionListeners;
  private readonly recentBlocks = new RecentBlocks();
  private current: LedgerPosition = EMPTY_POSITION;
  private readonly generations = new CommitGenerations();
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
    indexIds = true,
    observer,
    guardDocuments = true,
  }: ProjectionRunnerOptions) {
    checkRetentions({ undoRetention, commitLogRetention });
    this.commitLogRetention = commitLogRetention;
    this.store = store;
    this.projection = projection;
    this.logger = logger.child({ area: projection.area });
    this.listeners = new PositionListeners(this.logger);
    this.observer = observer;
    this.guardDocuments = guardDocuments;
    this.engine = embeddedEngineOf(store);
    const engine = this.engine;
    this.readDocument = engine
      ? (collection, id) => engine.findShared(collection, id)
      : (collection, id) => store.collection(collection).findById(id);
    this.undo = new UndoLog(store, this.readDocument, undoRetention, indexIds);
  }

  get position(): LedgerPosition {
    return this.current;
  }

  /** The position with its cache generation, as stored once the commit in hand (if any) is settled. */
  get ledgerState(): StoredLedgerState {
    const { current: position, readModel, fence } = this;
    const { generation, changedAt, commitInFlight } = this.generations;
    return { position, generation, changedAt, commitInFlight, readModel, fence };
  }

  /** Called after every applied or reverted block; returns the unsubscribe function. */
  onChange(listener: PositionListener): () => void {
    return this.listeners.add(listener);
  }

  async init(): Promise<void> {
    await this.store.ensureCollections([...this.projection.collections, ...BOOKKEEPING_COLLECTIONS]);
    // Before recovery, which may take back blocks through records of an earlier form.
    const upkeep = await this.undo.bringUpToForm();
    if (upkeep.length > 0) {
      this.logger.info({ batches: upkeep.length }, 'bringing the undo records kept to the present form');
      await this.commit(upkeep);
    }
    await this.recover();
    this.initialised = true;
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
    checkFollows(block, position);
    const writeSet = new BlockWriteSet(this.readDocument, block, this.guardDocuments);
    for (let sequence = 0; sequence < block.transactions.length; sequence++) {
      await this.projection.applyTransaction(writeSet, block.transactions[sequence], sequence);
    }
    const changes = await writeSet.changes();
    const { after } = changes;
    const changesData = after.length > 0;
    const undoWrites = this.undo.applyWrites(appliedUndoRecord(block, position), undoSteps(changes, this.engine));
    const next = { height: block.height, blockId: block.id, streamSeq: nextStreamSeq(this.current, streamSeq) };
    const commitRecord = this.commitLogWrites(changesData, appliedCommitEntry(block, this.projection));
    const pruned = await this.undo.pruneWrites(block.height);
    // Documents built here or put by the projection, which nothing changes once the block is committed.
    await this.commit([
      () => ({ handedOver: [this.beginCommit(), ...undoWrites, ...commitRecord] }),
      () => ({ handedOver: after }),
      () => ({ handedOver: [this.settledWrite(next, changesData), ...pruned] }),
    ]);
    this.recentBlocks.remember(block, text);
    this.generations.settle(changesData);
    this.moveTo(next, true);
    this.logger.debug({ height: block.height, blockId: block.id, streamSeq, writes: after.length }, 'block applied');
    return 'applied';
  }

  /** A block at or below the position: a duplicate if it is the block stored there, a fork otherwise. */
  private async appliedAgain(block: Block, streamSeq: number): Promise<HandleOutcome> {
    const knownId = await this.undo.blockIdAt(block.height, this.current);
    if (knownId === undefined) {
      this.logger.warn({ height: block.height, blockId: block.id }, 'block below the position without an undo record; treated as a duplicate');
    } else if (knownId !== block.id) {
      throw new LedgerGapFault(`height ${block.height} already holds block ${knownId}`, block);
    }
    await this.recordStreamSeq(streamSeq);
    return 'duplicate';
  }

  private async revert(ref: BlockRef, streamSeq: number): Promise<HandleOutcome> {
    const position = this.current;
    if (ref.height > position.height) {
      this.logger.warn({ height: ref.height, blockId: ref.id, position }, 'revert of a block above the position: already reverted');
      await this.recordStreamSeq(streamSeq);
      return 'duplicate';
    }
    checkRevertible(ref, position);
    const record = await this.undo.records().findById(undoRecordId(ref.height));
    if (!record || record.blockId !== ref.id) throw new LedgerFault('no undo record is kept for this block', ref);
    const next = { ...record.previous, streamSeq: nextStreamSeq(this.current, streamSeq) };
    const [restore] = await this.undo.restores([record]);
    const changesData = restore.length > 0;
    const block = { height: ref.height, id: ref.id };
    const commitRecord = this.commitLogWrites(changesData, { kind: 'block.reverted', position: record.previous, block });
    await this.commit([
      () => [this.beginCommit(), ...restore, ...commitRecord],
      () => [this.settledWrite(next, changesData)],
      () => this.undo.dropWrites(record),
    ]);
    this.generations.settle(changesData);
    this.moveTo(next, true);
    this.logger.debug({ height: ref.height, blockId: ref.id, streamSeq, writes: restore.length }, 'block reverted');
    return 'reverted';
  }

  /** Loads the position and rolls back any commit that was interrupted before its position was stored. */
  private async recover(): Promise<void> {
    const stored = await readStoredLedgerState(this.store);
    ({ position: this.current, readModel: this.readModel, fence: this.fence } = stored);
    this.generations.load(stored);
    if (!this.readModel) await this.nameReadModel();
    const newestFirst = await this.undo.interruptedAbove(stored.position.height);
    if (newestFirst.length > 0 || stored.commitInFlight) {
      // A reader that saw the generation before the interrupted commit must see a new one after the rollback: it may have read half the block.
      for (const record of newestFirst) {
        this.logger.warn({ height: record.height, blockId: record.blockId }, 'rolling back an interrupted block commit');
      }
      const restores = await this.undo.restores(newestFirst);
      // Counted as a change of data: what readers saw of the interrupted commit is unknown.
      const position = { height: stored.position.height, blockId: stored.position.blockId };
      const commitRecord = this.commitLogWrites(true, { kind: 'rollback', position });
      await this.commit([
        () => [this.beginCommit(), ...commitRecord],
        ...newestFirst.flatMap((record, index) => [() => restores[index], () => this.undo.dropWrites(record)]),
        () => [this.settledWrite(stored.position, true)],
      ]);
      this.generations.settle(true);
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
    return commitLogWrites({ ...this.generations.next(changesData), ...record }, this.commitLogRetention);
  }

  /** The first write of a commit: readers stop caching pages until it settles (in this process at once). */
  private beginCommit(): Write {
    this.generations.commitInFlight = true;
    return storedLedgerStateWrite({ ...this.ledgerState, commitInFlight: true });
  }

  /** The last write of a commit: the new position under the next generation, which names the data too when the commit changed it. */
  private settledWrite(position: LedgerPosition, changesData: boolean): Write {
    return storedLedgerStateWrite({ ...this.ledgerState, position, ...this.generations.next(changesData), commitInFlight: false });
  }

  private async recordStreamSeq(streamSeq: number): Promise<void> {
    const next = { ...this.current, streamSeq: nextStreamSeq(this.current, streamSeq) };
    if (next.streamSeq === this.current.streamSeq) return;
    await this.commit([() => [storedLedgerStateWrite({ ...this.ledgerState, position: next, commitInFlight: false })]]);
    this.moveTo(next, false);
  }

  /** Every write of the read model goes through here: one commit, refused once this writer is fenced out. */
  private commit(batches: Array<() => Write[] | HandedOver>): Promise<void> {
    return commitFenced(this.store, this.claimedToken, batches, this.engine);
  }

  private moveTo(position: LedgerPosition, changed: boolean): void {
    this.current = position;
    if (changed) this.listeners.tell(position);
  }
}
