import { isAnswer, type HttpOutcome } from '../support/raw-http';
import { ANSWER_LIMIT_MS } from './settings';

/**
 * What every answer owes a client, whatever it sent (api-behaviour.md §1, §2): an
 * answer in time, no server error but a 503 that says when to retry, and every
 * error (4xx, and the 503 too) in the error format.
 */
export interface Expectation {
  /** Defaults to ANSWER_LIMIT_MS. */
  limitMs?: number;
  /** The one status the request must get, e.g. 408 for a stalled body. */
  status?: number;
  /** A HEAD answer has no body to check. */
  head?: boolean;
}

function errorBodyProblem(status: number, headers: Record<string, string>, body: string): string | undefined {
  if (!/^application\/json\b/i.test(headers['content-type'] ?? ''))
    return `${status} with content-type ${JSON.stringify(headers['content-type'] ?? null)}`;
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch {
    return `${status} with a body that is not JSON: ${JSON.stringify(body.slice(0, 120))}`;
  }
  const error = parsed as Record<string, unknown>;
  const wellFormed =
    error !== null &&
    typeof error === 'object' &&
    Object.keys(error).sort().join() === 'error,message,statusCode' &&
    error.statusCode === status &&
    typeof error.error === 'string' &&
    error.error.length > 0 &&
    typeof error.message === 'string';
  return wellFormed ? undefined : `${status} with a body not in the error format: ${body.slice(0, 200)}`;
}

export function contractViolations(outcome: HttpOutcome, expectation: Expectation = {}): string[] {
  if (!isAnswer(outcome)) return [`no answer: ${outcome.failure} (after ${outcome.ms} ms)`];
  const { status, headers, body, ms } = outcome;
  const problems: string[] = [];
  const limitMs = expectation.limitMs ?? ANSWER_LIMIT_MS;
  if (ms > limitMs) problems.push(`answered ${status} after ${ms} ms, over ${limitMs} ms`);
  if (expectation.status !== undefined && status !== expectation.status)
    problems.push(`answered ${status}, expected ${expectation.status}: ${body.slice(0, 200)}`);
  if (status >= 500 && !(status === 503 && headers['retry-after'])) problems.push(`server error ${status}: ${body.slice(0, 200)}`);
  if (status >= 400 && !expectation.head) {
    const problem = errorBodyProblem(status, headers, body);
    if (problem) problems.push(problem);
  }
  return problems;
}

const HEX_ID_PATTERN = /^\^\[0-9a-fA-F\]\{(\d+)\}\$$/;

/**
 * The 422 message §1 gives a malformed hex path id sent as `segment`; undefined when
 * the id is well-formed, or when the segment is not plainly one id (empty, a dot
 * segment, raw `/`, `?` or `#`, or a broken escape).
 */
export function malformedIdMessage(parameter: { name: string; schema: { pattern?: string } }, segment: string): string | undefined {
  const length = HEX_ID_PATTERN.exec(parameter.schema.pattern ?? '')?.[1];
  if (!length || segment === '' || segment === '.' || segment === '..' || /[/?#]/.test(segment)) return undefined;
  let id: string;
  try {
    id = decodeURIComponent(segment);
  } catch {
    return undefined;
  }
  if (!/^[0-9a-fA-F]*$/.test(id)) return `"${parameter.name}" must only contain hexadecimal characters`;
  if (id.length !== Number(length)) return `"${parameter.name}" length must be ${length} characters long`;
  return undefined;
}
