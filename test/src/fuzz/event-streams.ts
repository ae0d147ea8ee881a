import { parse } from 'node:querystring';
import fc from 'fast-check';
import { parseCommitId, type CommitId } from '@ledger-api/http-core';
import { isAnswer } from '../support/raw-http';
import { PROTOTYPE_NAMES } from './arbitraries';
import type { StreamFrame, StreamOpening } from './client';

/**
 * What the live streams (docs/behaviour.md section 9) owe a hostile client: the expected
 * opening of a stream for any Last-Event-ID, and the key a refused query string names.
 */

/** Where the area's stream stands: its `position` event, which a fresh stream opens with. */
export interface StreamState {
  position: StreamFrame;
  commit: CommitId;
}

export function streamStateOf(position: StreamFrame | undefined): StreamState {
  const commit = parseCommitId(position?.id);
  if (position?.event !== 'position' || !commit) throw new Error(`a fresh stream opened with ${JSON.stringify(position)}, not a position`);
  return { position, commit };
}

/**
 * How a stream opens for a Last-Event-ID (HTTP drops the spaces around a header value):
 * an id of the area's read model up to its newest commit resumes (the events after it,
 * none when it is the newest); any other value opens on the current position, as a `reset`
 * (or a `position`, for a value no client would send as an id, an empty one).
 */
export type ExpectedOpening = 'replay' | 'quiet' | 'reset';

export function expectedOpening(lastEventId: string, { commit: current }: StreamState): ExpectedOpening {
  const commit = parseCommitId(lastEventId.replace(/^[ \t]+|[ \t]+$/g, ''));
  if (!commit || commit.readModel !== current.readModel || commit.generation > current.generation) return 'reset';
  return commit.generation === current.generation ? 'quiet' : 'replay';
}

/** Where a stream's opening departs from the expected one; the contract of every answer is checked apart. */
export function openingProblems({ outcome, firstEvent }: StreamOpening, expected: ExpectedOpening, state: StreamState): string[] {
  if (!isAnswer(outcome)) return [];
  if (outcome.status !== 200) return [`answered ${outcome.status}, expected a stream: ${outcome.body.slice(0, 200)}`];
  if (!/^text\/event-stream\b/.test(outcome.headers['content-type'] ?? ''))
    return [`answered 200 with content-type ${outcome.headers['content-type']}`];
  if (!outcome.body.startsWith('retry: ')) return [`the stream opens with ${JSON.stringify(outcome.body.slice(0, 40))}, not retry`];
  const shown = JSON.stringify(firstEvent ?? null);
  if (expected === 'quiet') return firstEvent ? [`resumed at the newest event, yet sent ${shown}`] : [];
  if (!firstEvent) return [`no first event within the time allowed`];
  if (expected === 'reset') {
    const opensOnPosition = (firstEvent.event === 'reset' || firstEvent.event === 'position') && firstEvent.data === state.position.data;
    return opensOnPosition && firstEvent.id === state.position.id ? [] : [`expected reset at the current position, got ${shown}`];
  }
  const commit = parseCommitId(firstEvent.id);
  const isBlock = firstEvent.event === 'block.applied' || firstEvent.event === 'block.reverted';
  const resumed = commit && commit.readModel === state.commit.readModel && commit.generation <= state.commit.generation;
  return isBlock && resumed ? [] : [`expected the events after the id, got ${shown}`];
}

/** Characters a header value may hold (HTTP's field-vchar, obs-text, and spaces inside). */
const HEADER_CHARS = [...Array.from({ length: 0x7e - 0x20 + 1 }, (_, at) => String.fromCharCode(0x20 + at)), '\t', 'é', 'ÿ', '\u00a0'];

/**
 * Last-Event-ID values: ids of the area's read model at, before, after and far beyond its
 * newest commit, written oddly; ids of other read models; and text that is no id at all.
 */
export function lastEventIdValue({ commit }: StreamState): fc.Arbitrary<string> {
  const { readModel, generation } = commit;
  const ofModel = (model: string) => fc.nat({ max: generation + 50 }).map((at) => `${model}-${at}`);
  return fc.oneof(
    ofModel(readModel),
    fc.constantFrom(
      `${readModel}-${generation}`,
      `${readModel}-${String(generation).padStart(12, '0')}`,
      ` ${readModel}-${generation - 1} `,
      `${readModel}-${'9'.repeat(15)}`,
      `${readModel}-${'9'.repeat(16)}`,
      `${readModel}-1e3`,
      `${readModel}--1`,
      `${readModel}-`,
      `-${generation}`,
      readModel,
      String(generation),
      `${readModel.toUpperCase()}-${generation}`,
      `${readModel}-${generation}-${generation}`,
      '',
      ...PROTOTYPE_NAMES,
    ),
    fc.string({ unit: fc.constantFrom(...'abcXYZ019_'), minLength: 1, maxLength: 70 }).chain(ofModel),
    fc.string({ unit: fc.constantFrom(...HEADER_CHARS), maxLength: 200 }),
    fc.integer({ min: 1_000, max: 4_000 }).map((size) => `${readModel}-${'1'.repeat(size)}`),
  );
}

const queryTextOf = (query: string) => query.replace(/^\?/, '').replace(/#.*$/, '');

/**
 * The keys a query string (`?` included) carries, as the gateway reads them; a refusal
 * must name one of them. None (`?`, `?&`) is no query key: the stream opens.
 */
export function queryKeys(query: string): string[] {
  return Object.keys(parse(queryTextOf(query)));
}

/** The value of `key` in the query string, the first one where it is repeated, as the servers read it. */
export function queryValue(query: string, key: string): string | undefined {
  const value = parse(queryTextOf(query))[key];
  return Array.isArray(value) ? value[0] : value;
}
