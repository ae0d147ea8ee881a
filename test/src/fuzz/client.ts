import { Pool } from 'undici';
import { sendRaw, type HttpOutcome, type RawRequest } from '../support/raw-http';
import { contractViolations, type Expectation } from './contract';
import { CLIENT_TIMEOUT_MS } from './settings';
import { showBytes } from './shown';
import type { FuzzSummary } from './summary';

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
