import type { LedgerEvent, ProjectionRunner } from '@ledger-api/ledger';

export interface TestResponse {
  status: number;
  headers: Record<string, string>;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- tests read whatever JSON the route answered
  body: any;
}

export interface TestArea {
  baseUrl: string;
  runner: ProjectionRunner;
  request(method: 'GET' | 'POST', path: string, body?: unknown, headers?: Record<string, string>): Promise<TestResponse>;
  /** Feeds events to the projection, in order, as the next stream messages. */
  apply(events: LedgerEvent[]): Promise<void>;
  close(): Promise<void>;
}
