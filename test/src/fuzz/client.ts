import { Pool } from 'undici';
import { sendRaw, type HttpOutcome, type RawRequest } from '../support/raw-http';
import { contractViolations, type Expectation } from './contract';
import { CLIENT_TIMEOUT_MS } from './settings';
import { showBytes } from './shown';
import type { FuzzSummary } from './summary';

/** One event of a live stream as read off the wire. */
export interface StreamFrame {
  event: string;
  id?: string;
  data: string;
}

/** A live stream's answer read only up to its first event: an error answer is read whole. */
export interface StreamOpening {
  outcome: HttpOutcome;
  firstEvent?: StreamFrame;
}

export interface FuzzRequest {
  method: string;
  /** Path and query in wire form, sent as they are (no normalisation). */
  target: string;
  headers?: Record<string, string>;
  body?: Buffer | string;
}

/** Sends requests to the gateway, checks each answer against the contract and records it. */
export class FuzzClient {
  private readonly pool: Pool;

  constructor(
    private readonly gateway: string,
    private readonly summary: FuzzSummary,
  ) {
    this.pool = new Pool(gateway, { connections: 8 });
  }

  get port(): number {
    return Number(new URL(this.gateway).port);
  }

  async send(request: FuzzRequest): Promise<HttpOutcome> {
    const started = performance.now();
    const elapsed = () => Math.round(performance.now() - started);
    try {
      const answer = await this.pool.request({
        method: request.method,
        path: request.target,
        headers: request.headers,
        body: request.body,
        headersTimeout: CLIENT_TIMEOUT_MS,
        bodyTimeout: CLIENT_TIMEOUT_MS,
      });
      const body = await answer.body.text();
      return { status: answer.statusCode, headers: answer.headers as Record<string, string>, body, ms: elapsed() };
    } catch (error) {
      const failure = error as NodeJS.ErrnoException;
      return { failure: failure.code ?? failure.message, ms: elapsed() };
    }
  }

  /**
   * Sends a request to a live stream. A stream never ends by itself, so a 200 event stream
   * is read up to its first event, or for `waitMs` when none comes, then closed.
   */
  async openStream(request: FuzzRequest, waitMs: number): Promise<StreamOpening> {
    const started = performance.now();
    const elapsed = () => Math.round(performance.now() - started);
    const closing = new AbortController();
    try {
      const answer = await this.pool.request({
        method: request.method,
        path: request.target,
        headers: request.headers,
        headersTimeout: CLIENT_TIMEOUT_MS,
        bodyTimeout: CLIENT_TIMEOUT_MS,
        signal: closing.signal,
      });
      const headers = answer.headers as Record<string, string>;
      if (answer.statusCode !== 200 || !/^text\/event-stream\b/.test(headers['content-type'] ?? '')) {
        const body = await answer.body.text();
        return { outcome: { status: answer.statusCode, headers, body, ms: elapsed() } };
      }
      let body = '';
      let firstEvent: StreamFrame | undefined;
      const deadline = setTimeout(() => closing.abort(), waitMs);
      try {
        for await (const chunk of answer.body) {
          body += String(chunk);
          [firstEvent] = eventFrames(body);
          if (firstEvent) break;
        }
      } catch {
        // Closed at the deadline: what arrived until then is the answer.
      } finally {
        clearTimeout(deadline);
        closing.abort();
      }
      return { outcome: { status: answer.statusCode, headers, body, ms: elapsed() }, firstEvent };
    } catch (error) {
      const failure = error as NodeJS.ErrnoException;
      return { outcome: { failure: failure.code ?? failure.message, ms: elapsed() } };
    }
  }

  /** Sends and returns the contract violations; the property fails on any. */
  async check(request: FuzzRequest, expectation: Expectation = {}): Promise<string[]> {
    const outcome = await this.send(request);
    return this.judge(`${request.method} ${request.target}`, outcome, { ...expectation, head: request.method === 'HEAD' });
  }

  async checkRaw(request: Omit<RawRequest, 'timeoutMs'>, expectation: Expectation = {}): Promise<string[]> {
    const outcome = await sendRaw(this.port, { ...request, timeoutMs: Math.max(CLIENT_TIMEOUT_MS, expectation.limitMs ?? 0) });
    return this.judge(showBytes(request.bytes), outcome, { ...expectation, head: request.head });
  }

  judge(label: string, outcome: HttpOutcome, expectation: Expectation): string[] {
    const violations = contractViolations(outcome, expectation);
    // Answers allowed to take longer (a stalled body's 408) say nothing about speed.
    this.summary.record(label, outcome, violations, expectation.limitMs === undefined);
    return violations;
  }

  close(): Promise<void> {
    return this.pool.close();
  }
}

/** The complete events of a stream's text so far: comments and `retry`-only frames are not events. */
export function eventFrames(text: string): StreamFrame[] {
  const blocks = text.split(/\r\n\r\n|\n\n|\r\r/);
  // The last block is not complete until a blank line follows it.
  return blocks.slice(0, -1).flatMap((block) => {
    const fields: Record<string, string> = {};
    for (const line of block.split(/\r\n|\n|\r/)) {
      if (line === '' || line.startsWith(':')) continue;
      const colon = line.indexOf(':');
      const name = colon < 0 ? line : line.slice(0, colon);
      fields[name] = colon < 0 ? '' : line.slice(colon + 1).replace(/^ /, '');
    }
    return fields.event === undefined && fields.data === undefined
      ? []
      : [{ event: fields.event ?? 'message', id: fields.id, data: fields.data ?? '' }];
  });
}
