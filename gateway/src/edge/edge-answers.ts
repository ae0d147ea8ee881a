import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Request, RequestHandler } from 'express';
import fresh from 'fresh';
import {
  dataGenerationOf,
  formatCommitId,
  holdsUntilDataChanges,
  isStorable,
  LEDGER_COMMIT_HEADER,
  negotiateEncoding,
  normalizePath,
  pageRequestKey,
  parseCommitId,
  STORABLE_HEADER,
  VALIDITY_HEADER,
  type CommitId,
} from '@ledger-api/http-core';
import type { Metrics } from '@ledger-api/observability';
import { keptHeadersOf, notModifiedHeadersOf } from '../header-policy';
import { contextOf, type EdgeCapture } from '../request-context';
import type { RoutedArea } from '../upstreams';
import type { AreaFeed, EdgeState } from './area-feed';
import type { EdgeCache, EdgeEntry, KeptAnswer } from './edge-cache';

/** Labelled by `area` and `result`: hit, miss (proxied, may be kept), bypass (proxied, the feed cannot vouch for the area). */
export type EdgeRequestCounter = ReturnType<Metrics['counter']>;

/** Labelled by `area`: requests that waited for the same request in flight instead of being proxied. */
export type EdgeWaitCounter = ReturnType<Metrics['counter']>;

export interface EdgeAnswersOptions {
  area: RoutedArea;
  feed: AreaFeed;
  cache: EdgeCache;
  requests: EdgeRequestCounter;
  waits: EdgeWaitCounter;
}

// Answers of these methods are pages: the same request at the same commit gets the same answer.
const PAGE_METHODS = new Set(['GET', 'HEAD', 'POST']);

/** What keys a request at the edge: all of it the service's answer depends on. */
export interface EdgeRequest {
  method: string;
  /** The path below the area's mount point, as the area's router sees it. */
  path: string;
  querystring: string;
  acceptEncoding: string | undefined;
  /** A POST's body, read whole before the lookup. */
  body?: string;
}

/** Keyed by the commit that last changed the area's data: answers that hold for one commit only are told apart by what is kept (see answerAt). */
function edgeKey(area: RoutedArea, commit: CommitId, { method, path, querystring, acceptEncoding, body }: EdgeRequest): string {
  const request = pageRequestKey({ method, path: normalizePath(`${area.servicePath}${path}`), querystring, body });
  const data = formatCommitId({ readModel: commit.readModel, generation: dataGenerationOf(commit) });
  return `${area.service} ${data} ${negotiateEncoding(acceptEncoding)} ${request}`;
}

/**
 * What a kept answer sends at the edge state, or undefined when it does not hold there: an answer
 * kept for its commit only holds while that is the newest; one that holds until the area's data
 * changes (which its key vouches for) names the head block in its headers, as the service does.
 */
export function answerAt(kept: KeptAnswer, { commit, head }: EdgeState): EdgeEntry | undefined {
  if (!kept.holdsUntilDataChanges) return kept.renderedAt === commit.generation ? kept : undefined;
  if (kept.sent?.generation !== commit.generation) {
    const headers = [...kept.headers, ['x-block-height', String(head.height)] as const, ['x-block-id', head.id] as const];
    kept.sent = { generation: commit.generation, answer: { headers, body: kept.body } };
  }
  return kept.sent.answer;
}

function edgeRequestOf(req: Request): EdgeRequest {
  const [, querystring = ''] = (req.url ?? '').split(/\?(.*)/s, 2);
  const body = req.method === 'POST' ? (req.context.body?.toString('utf8') ?? '') : undefined;
  return { method: req.method ?? 'GET', path: req.path, querystring, acceptEncoding: req.headers['accept-encoding'], body };
}

/**
 * The answer a kept entry gives this request: the page, or 304 when the client holds it
 * already (a 304 goes without the headers that describe a body, as the services send it).
 */
export function edgeAnswerOf(req: IncomingMessage, entry: EdgeEntry): { status: number; headers: EdgeEntry['headers']; body?: Buffer } {
  const notModified = req.method !== 'POST' && req.headers['if-none-match'] !== undefined && fresh(req.headers, { etag: headerOf(entry, 'etag') });
  if (notModified) return { status: 304, headers: notModifiedHeadersOf(entry.headers) };
  return { status: 200, headers: entry.headers, body: req.method === 'HEAD' ? undefined : entry.body };
}

function sendEntry(req: IncomingMessage, res: ServerResponse, entry: EdgeEntry): void {
  const { status, headers, body } = edgeAnswerOf(req, entry);
  for (const [name, value] of headers) res.setHeader(name, value);
  res.statusCode = status;
  res.end(body);
}

function headerOf(entry: EdgeEntry, name: string): string | undefined {
  const found = entry.headers.find(([header]) => header === name)?.[1];
  return typeof found === 'string' ? found : undefined;
}

/**
 * Requests of one key that wait for the first of them, in flight to the service, to be
 * answered. Right after a commit every page of the area is a miss at once; without this
 * each concurrent miss of a busy page would be rendered again.
 */
class MissesInFlight {
  private readonly waiting = new Map<string, Array<(kept: boolean) => void>>();

  /** Waits for the request in flight under this key, if one is: true when the caller now waits. */
  wait(key: string, resume: (kept: boolean) => void): boolean {
    const waiters = this.waiting.get(key);
    if (waiters) waiters.push(resume);
    return waiters !== undefined;
  }

  /** The caller's request goes to the service; those of the same key wait until its answer is sent (or given up). */
  lead(key: string, res: ServerResponse, kept: () => boolean): void {
    this.waiting.set(key, []);
    res.once('close', () => {
      const waiters = this.waiting.get(key) ?? [];
      this.waiting.delete(key);
      const answerKept = kept();
      for (const resume of waiters) resume(answerKept);
    });
  }
}

/**
 * Answers a request of the area from the edge cache when an answer to the same request,
 * rendered at the area's newest commit, is kept; otherwise passes it on to be proxied,
 * marked so that its answer is kept when it turns out to be of that commit. A miss whose
 * request is already in flight waits for that answer instead, and is looked up again
 * once it is kept; when it was not kept (an error, a page that may not be kept), it is proxied.
 */
export function edgeAnswers({ area, feed, cache, requests, waits }: EdgeAnswersOptions): RequestHandler {
  const counted = {
    hit: requests.labels({ area: area.service, result: 'hit' }),
    miss: requests.labels({ area: area.service, result: 'miss' }),
    bypass: requests.labels({ area: area.service, result: 'bypass' }),
  };
  const waited = waits.labels({ area: area.service });
  const inFlight = new MissesInFlight();
  const proxied = (req: Request, capture: EdgeCapture, next: () => void) => {
    counted.miss.inc();
    req.context.capture = capture;
    next();
  };
  const answer: RequestHandler = (req, res, next) => {
    if (!PAGE_METHODS.has(req.method)) return next();
    const state = feed.edgeState();
    if (!state) {
      counted.bypass.inc();
      return next();
    }
    const { commit } = state;
    const capture = { key: edgeKey(area, commit, edgeRequestOf(req)), commit: formatCommitId(commit), generation: commit.generation };
    const kept = cache.get(capture.key);
    const entry = kept && answerAt(kept, state);
    if (entry) {
      counted.hit.inc();
      req.context.answeredAtEdge = true;
      return sendEntry(req, res, entry);
    }
    const waiting = inFlight.wait(capture.key, (answered) => (answered ? answer(req, res, next) : proxied(req, capture, next)));
    if (waiting) return waited.inc();
    inFlight.lead(capture.key, res, () => cache.get(capture.key)?.renderedAt === capture.generation);
    proxied(req, capture, next);
  };
  return answer;
}

/**
 * Finds the answer kept for a request at the area's newest commit, and counts it as a hit;
 * finds none (and counts nothing: the request goes on to edgeAnswers) when the feed cannot
 * vouch for the area or nothing is kept.
 */
export function keptAnswers({ area, feed, cache, requests }: EdgeAnswersOptions): (request: EdgeRequest) => EdgeEntry | undefined {
  const hits = requests.labels({ area: area.service, result: 'hit' });
  return (request) => {
    const state = feed.edgeState();
    const kept = state && cache.get(edgeKey(area, state.commit, request));
    const entry = kept && answerAt(kept, state);
    if (entry) hits.inc();
    return entry;
  };
}

/**
 * Sees a service's answer on its way to the client (before the proxy strips the internal
 * headers): tells the feed of a commit it has not announced, and keeps a whole 200 page the
 * service marked storable that was rendered at the commit the request was looked up at, if
 * that is still the newest when the page is complete: for that commit only, or until the
 * area's data changes when the service says it holds that long. Cache-Control plays no part:
 * it is what clients are told, and a page marked `no-store` for them may still be kept here.
 */
export function keepForEdge(feed: AreaFeed, cache: EdgeCache, maxEntryBytes: number) {
  return (proxyRes: IncomingMessage, req: IncomingMessage): void => {
    const header = proxyRes.headers[LEDGER_COMMIT_HEADER];
    const served = typeof header === 'string' ? parseCommitId(header) : undefined;
    if (served) feed.noteServedCommit(served);
    const { capture } = contextOf(req);
    if (!capture || header !== capture.commit || proxyRes.statusCode !== 200 || req.method === 'HEAD') return;
    if (!isStorable(proxyRes.headers[STORABLE_HEADER])) return;
    // Read now: the proxy strips the service's internal headers once this has seen them.
    const holds = holdsUntilDataChanges(proxyRes.headers[VALIDITY_HEADER]);
    const chunks: Buffer[] = [];
    let size = 0;
    proxyRes.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size <= maxEntryBytes) chunks.push(chunk);
    });
    proxyRes.once('end', () => {
      const newest = feed.edgeCommit();
      if (size > maxEntryBytes || !newest || formatCommitId(newest) !== capture.commit) return;
      const headers = keptHeadersOf(proxyRes.headers, holds);
      cache.set(capture.key, { headers, body: Buffer.concat(chunks, size), renderedAt: capture.generation, holdsUntilDataChanges: holds });
    });
  };
}
