import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { isAnswer, type HttpOutcome } from '../support/raw-http';

/** What a fuzz run sent and got back, written to RESULTS_DIR and printed at the end. */
export class FuzzSummary {
  private requests = 0;
  private readonly statuses: Record<string, number> = {};
  private slowest = { ms: 0, request: '', status: '' };
  private readonly violations: Record<string, { count: number; example: string }> = {};

  constructor(
    private readonly seed: number,
    private readonly runs: number,
  ) {}

  record(request: string, outcome: HttpOutcome, violations: string[], timed = true): void {
    this.requests++;
    const status = isAnswer(outcome) ? String(outcome.status) : 'no answer';
    this.statuses[status] = (this.statuses[status] ?? 0) + 1;
    if (timed && outcome.ms > this.slowest.ms) this.slowest = { ms: outcome.ms, request: request.slice(0, 300), status };
    for (const violation of violations) {
      const kind = violation.replace(/\d+ ms/g, 'N ms').slice(0, 160);
      this.violations[kind] ??= { count: 0, example: request.slice(0, 300) };
      this.violations[kind].count++;
    }
  }

  write(directory: string): string {
    const summary = {
      seed: this.seed,
      runs: this.runs,
      requests: this.requests,
      statusHistogram: Object.fromEntries(Object.entries(this.statuses).sort()),
      slowestAnswer: this.slowest,
      violations: this.violations,
    };
    mkdirSync(directory, { recursive: true });
    const text = JSON.stringify(summary, null, 2);
    writeFileSync(join(directory, `summary-seed-${this.seed}.json`), `${text}\n`);
    return text;
  }
}
