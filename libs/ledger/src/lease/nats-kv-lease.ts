import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import { setTimeout as delay } from 'node:timers/promises';
import { JetStreamApiCodes } from '@nats-io/jetstream';
import { Kvm, type KV } from '@nats-io/kv';
import { connect, type NatsConnection } from '@nats-io/transport-node';
import type { Logger } from '@ledger-api/observability';
import type { NatsCredentials } from '../nats-settings';
import { isJetStreamApiError } from '../stream';
import type { HeldLease, ProjectorLease } from './types';

export const DEFAULT_LEASE_BUCKET = 'ledger-projector-leases';
export const DEFAULT_LEASE_TTL_MS = 15_000;

export interface NatsKvLeaseOptions {
  servers: string | string[];
  credentials?: NatsCredentials;
  /** One key per shared consumer, e.g. `<stream>.<consumer>`. */
  key: string;
  logger: Logger;
  /** How long the lease outlives its holder's last renewal: the bucket's age limit. */
  ttlMs?: number;
  bucket?: string;
  /**
   * The bucket's copies in a JetStream cluster when it is first created: the ledger stream's, so
   * the lease survives the loss of a node whenever the stream does.
   */
  replicas?: number;
  /** Stored as the key's value, so logs and `nats kv get` say who holds it. */
  holder?: string;
}

/**
 * A lease in a NATS KV bucket whose entries expire `ttlMs` after they were
 * written (the bucket's max age; NATS 2.9 has no per-key TTL). Taking it is a
 * create, which only succeeds while the key is absent, expired or deleted;
 * renewing it is an update against the revision this holder wrote last, so a
 * holder that was replaced finds out at its next renewal. The holder renews
 * every third of the TTL and counts the lease lost once a third of the TTL is
 * all that is left since the last renewal that went through, before the
 * server lets anyone else take it.
 */
export class NatsKvLease implements ProjectorLease {
  private readonly servers: string | string[];
  private readonly credentials: NatsCredentials;
  private readonly key: string;
  private readonly logger: Logger;
  private readonly bucketName: string;
  private readonly holder: string;
  private readonly replicas: number;
  private ttlMs: number;
  private kv: Promise<{ connection: NatsConnection; kv: KV }> | undefined;
  /** The revision this holder wrote last; 0 while not held. */
  private revision = 0;
  private held: AbortController | undefined;
  private renewing: Promise<void> = Promise.resolve();
  private lastHolderSeen: string | undefined;

  constructor(options: NatsKvLeaseOptions) {
    const { servers, credentials = {}, key, logger, ttlMs = DEFAULT_LEASE_TTL_MS, bucket = DEFAULT_LEASE_BUCKET, replicas = 1, holder } = options;
    this.credentials = credentials;
    this.replicas = replicas;
    if (!Number.isSafeInteger(ttlMs) || ttlMs < 300) throw new RangeError(`ttlMs must be an integer of at least 300, got ${ttlMs}`);
    this.servers = servers;
    this.key = key;
    this.bucketName = bucket;
    this.ttlMs = ttlMs;
    this.holder = holder ?? `${hostname()}-${process.pid}-${randomBytes(3).toString('hex')}`;
    this.logger = logger.child({ lease: `${bucket}/${key}`, holder: this.holder });
  }

  private get intervalMs(): number {
    return Math.floor(this.ttlMs / 3);
  }

  async acquire(stop: AbortSignal): Promise<HeldLease | undefined> {
    while (!stop.aborted) {
      const attemptAt = Date.now();
      try {
        if (await this.tryTake()) return this.hold(attemptAt);
      } catch (error) {
        this.logger.warn({ err: error }, 'projector lease unavailable; trying again');
      }
      await pause(this.intervalMs, stop);
    }
    return undefined;
  }

  async release(): Promise<void> {
    const held = this.held;
    this.held = undefined;
    held?.abort();
    await this.renewing;
    const opened = await this.kv?.catch(() => undefined);
    this.kv = undefined;
    if (!opened) return;
    if (held && this.revision > 0) {
      // Only our own entry is deleted: a takeover since the last renewal changed the revision.
      await opened.kv.delete(this.key, { previousSeq: this.revision }).catch(() => undefined);
      this.logger.info('projector lease released');
    }
    this.revision = 0;
    if (!opened.connection.isClosed()) await opened.connection.close();
  }

  private async tryTake(): Promise<boolean> {
    const { kv } = await this.bucket();
    try {
      this.revision = await kv.create(this.key, this.holder);
      this.lastHolderSeen = undefined;
      this.logger.info('projector lease taken');
      return true;
    } catch (error) {
      if (!isJetStreamApiError(error, JetStreamApiCodes.StreamWrongLastSequence)) throw error;
    }
    const holder = (await kv.get(this.key))?.string();
    if (holder && holder !== this.lastHolderSeen) this.logger.info({ heldBy: holder }, 'projector lease held elsewhere; standing by');
    this.lastHolderSeen = holder;
    return false;
  }

  /** The revision the take wrote is the token: the bucket's revisions only ever grow. */
  private hold(takenAt: number): HeldLease {
    const held = new AbortController();
    this.held = held;
    const token = this.revision;
    this.renewing = this.renew(held, takenAt);
    return { lost: held.signal, token };
  }

  private async renew(held: AbortController, takenAt: number): Promise<void> {
    let renewedAt = takenAt;
    while (!held.signal.aborted) {
      await pause(this.intervalMs, held.signal);
      if (held.signal.aborted) return;
      const sentAt = Date.now();
      try {
        const { kv } = await this.bucket();
        this.revision = await kv.update(this.key, this.holder, this.revision, this.intervalMs);
        renewedAt = sentAt;
      } catch (error) {
        if (isJetStreamApiError(error, JetStreamApiCodes.StreamWrongLastSequence)) return this.lose(held, 'taken over or expired');
        if (Date.now() - renewedAt >= this.ttlMs - this.intervalMs) return this.lose(held, 'not renewed in time');
        this.logger.warn({ err: error }, 'projector lease renewal failed; trying again');
      }
    }
  }

  private lose(held: AbortController, reason: string): void {
    this.logger.warn({ reason }, 'projector lease lost');
    this.revision = 0;
    if (this.held === held) this.held = undefined;
    held.abort();
  }

  /** One connection while the lease is wanted; opened again after a failed attempt. */
  private bucket(): Promise<{ connection: NatsConnection; kv: KV }> {
    if (!this.kv) {
      const opening = this.open();
      this.kv = opening;
      opening.catch(() => {
        if (this.kv === opening) this.kv = undefined;
      });
    }
    return this.kv;
  }

  private async open(): Promise<{ connection: NatsConnection; kv: KV }> {
    const connection = await connect({ servers: this.servers, ...this.credentials, name: `lease ${this.holder}`, maxReconnectAttempts: -1 });
    try {
      const kv = await new Kvm(connection).create(this.bucketName, { ttl: this.ttlMs, history: 1, replicas: this.replicas });
      // An existing bucket keeps its own age limit, and that is what decides when a lease expires.
      const { ttl, replicas } = await kv.status();
      if (replicas !== this.replicas) {
        this.logger.warn(
          { bucketReplicas: replicas, replicas: this.replicas },
          'lease bucket exists with other replicas; change it with nats stream edit',
        );
      }
      if (ttl <= 0) throw new Error(`KV bucket ${this.bucketName} has no age limit, so its leases would never expire`);
      if (ttl !== this.ttlMs) this.logger.warn({ bucketTtlMs: ttl, ttlMs: this.ttlMs }, 'lease bucket exists with another TTL; following it');
      this.ttlMs = ttl;
      return { connection, kv };
    } catch (error) {
      await connection.close();
      throw error;
    }
  }
}

/** Waits, or returns early once the signal fires. */
async function pause(ms: number, signal: AbortSignal): Promise<void> {
  await delay(ms, undefined, { signal }).catch(() => undefined);
}
