import { isAnswer, type HttpOutcome } from '../support/raw-http';
import { ANSWER_LIMIT_MS } from './settings';

/**
 * What every answer owes a client, whatever it sent (docs/behaviour.md §1, §2): an
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

const MAX_BODY_BYTES = 64 * 1024;
const MAX_BATCH_IDS = 100;

/** What a batch lookup must answer: 200 with an entry per id, or the status and message of the body's first problem. */
export type BatchAnswer = { status: 200; ids: string[] } | { status: 413 } | { status: 422; message: string };

/** The first problem of one requested id (docs/behaviour.md section 10), undefined for a well-formed one. */
function batchIdProblem(id: unknown, at: number): string | undefined {
  const name = `"ids[${at}]"`;
  if (typeof id !== 'string') return `${name} must be a string`;
  if (!/^[0-9a-fA-F]*$/.test(id)) return `${name} must only contain hexadecimal characters`;
  if (id.length !== 64) return `${name} length must be 64 characters long`;
  return undefined;
}

/** The answer sections 1 and 10 give a batch lookup sent `bytes` as application/json. */
export function expectedBatchAnswer(bytes: Buffer): BatchAnswer {
  if (bytes.length > MAX_BODY_BYTES) return { status: 413 };
  const refused = (message: string): BatchAnswer => ({ status: 422, message });
  const text = bytes.toString('utf8');
  let body: unknown = null;
  if (text.trim() !== '') {
    try {
      body = JSON.parse(text);
    } catch {
      return refused('Invalid request payload JSON format');
    }
  }
  if (body === null || typeof body !== 'object' || Array.isArray(body)) return refused('"value" must be of type object');
  const members = body as Record<string, unknown>;
  if (!Object.hasOwn(members, 'ids')) return refused('"ids" is required');
  const { ids } = members;
  if (!Array.isArray(ids)) return refused('"ids" must be an array');
  if (ids.length < 1) return refused('"ids" must contain at least 1 items');
  if (ids.length > MAX_BATCH_IDS) return refused(`"ids" must contain less than or equal to ${MAX_BATCH_IDS} items`);
  const problem = ids.map(batchIdProblem).find(Boolean);
  if (problem) return refused(problem);
  const other = Object.keys(members).find((key) => key !== 'ids');
  if (other !== undefined) return refused(`"${other}" is not allowed`);
  return { status: 200, ids: (ids as string[]).map((id) => id.toLowerCase()) };
}

/**
 * How a batch lookup's answer differs from the one expected: each entry must carry the id
 * asked for at its place, or be null, never for an id in `known` (ids of existing records).
 */
export function batchAnswerProblems(expected: BatchAnswer, status: number, body: string, known: ReadonlySet<string>): string[] {
  if (status !== expected.status) return [`answered ${status}, expected ${expected.status}: ${body.slice(0, 200)}`];
  if (expected.status === 422) {
    const { message } = JSON.parse(body) as { message: string };
    return message === expected.message ? [] : [`answered 422 ${JSON.stringify(message)}, expected ${JSON.stringify(expected.message)}`];
  }
  if (expected.status !== 200) return [];
  const { data } = JSON.parse(body) as { data: Array<{ id?: unknown } | null> };
  if (!Array.isArray(data) || data.length !== expected.ids.length) return [`answered ${data?.length} entries for ${expected.ids.length} ids`];
  return data.flatMap((entry, at) => {
    const id = expected.ids[at];
    if (entry === null) return known.has(id) ? [`entry ${at} is null, for the existing ${id}`] : [];
    return entry.id === id ? [] : [`entry ${at} is ${JSON.stringify(entry).slice(0, 100)}, asked for ${id}`];
  });
}
