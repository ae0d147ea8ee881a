import fc from 'fast-check';
import { LAST_EVENT_ID_QUERY_KEY } from '@ledger-api/http-core';
import { waitFor } from '@ledger-api/test-kit';
import { startLocalStack, type LocalStack } from '../support/local-stack';
import { isAnswer, sendRaw } from '../support/raw-http';
import { idSegment, offersWildcards, queryString, wildcardQuery } from './arbitraries';
import { batchBody, contentType, isInjectionName, oversizedBodies, searchBody } from './bodies';
import { FuzzClient, type StreamOpening } from './client';
import { batchAnswerProblems, expectedBatchAnswer, malformedIdMessage } from './contract';
import {
  describeEndpoint,
  existingBatchIds,
  existingValues,
  fetchEndpoints,
  fillPath,
  findExamplePath,
  finiteEndpoints,
  JSON_HEADERS,
  flipLetterCase,
  isBatchLookup,
  isEventStream,
  isSearch,
  matchesTemplate,
  plainRequestOf,
  routeLetterPositions,
  snapshotLists,
  type Endpoint,
  type ListSnapshot,
} from './endpoints';
import { expectedOpening, lastEventIdValue, openingProblems, queryKeys, queryValue, streamStateOf, type StreamState } from './event-streams';
import { METHODS, malformedRequest, methodRequest, stalledBody, type RawCase } from './raw-requests';
import {
  ANSWER_LIMIT_MS,
  CLIENT_TIMEOUT_MS,
  FUZZ_RUNS,
  FUZZ_SEED,
  PROPERTY_TIME_LIMIT_MS,
  PROXY_DEADLINE_MS,
  QUIET_STREAM_MS,
  REQUEST_DEADLINE_MS,
  RESULTS_DIR,
  runsPerTarget,
  seedFor,
  STALLED_BODY_LIMIT_MS,
  STREAM_FIRST_EVENT_MS,
} from './settings';
import { showBytes, shownWire } from './shown';
import { FuzzSummary } from './summary';

/**
 * Hostile requests through the gateway to every operation of its OpenAPI document.
 * Whatever a client sends, the answer keeps the contract (see contract.ts) and no
 * stored data changes. FUZZ_SEED and FUZZ_RUNS (settings.ts) size the run.
 */
const summary = new FuzzSummary(FUZZ_SEED, FUZZ_RUNS);
let stack: LocalStack | undefined;
let client: FuzzClient;
/** The operations whose answers end: every property reads whole answers of these. */
let endpoints: Endpoint[];
/** The live streams, whose answers never end: read up to their first event. */
let streams: Endpoint[];
const streamStates = new Map<Endpoint, StreamState>();
let listsBefore: ListSnapshot;

let examplePaths: Map<Endpoint, string>;

const examplePath = (endpoint: Endpoint) => examplePaths.get(endpoint)!;

/** Fails a property with the broken rules; where in the suite it failed says nothing more. */
function failWith(violations: string[]): void {
  if (violations.length === 0) return;
  const failure = new Error(violations.join('\n'));
  failure.stack = failure.message;
  throw failure;
}

/**
 * Checks `property` once per target with a seed of its own and returns fast-check's
 * report for each target that failed, so one run lists every broken route.
 */
async function failuresOf<T, Values extends unknown[]>(
  category: string,
  share: number,
  targets: T[],
  name: (target: T) => string,
  property: (target: T) => fc.IAsyncProperty<Values>,
): Promise<string[]> {
  const failures: string[] = [];
  for (const target of targets) {
    const details = await fc.check(property(target), {
      seed: seedFor(category, name(target)),
      numRuns: runsPerTarget(share, targets.length),
      includeErrorInReport: true,
      plugins: [fc.interruptAfterTimeLimit(PROPERTY_TIME_LIMIT_MS)],
    });
    if (details.failed) failures.push(`${name(target)}\n${fc.defaultReportMessage(details)}`);
  }
  return failures;
}

beforeAll(async () => {
  // One client address opens every stream: the per-client bound is not what is fuzzed.
  const env = {
    RATE_LIMIT_PER_MINUTE: '0',
    REQUEST_TIMEOUT_MS: String(REQUEST_DEADLINE_MS),
    PROXY_TIMEOUT_MS: String(PROXY_DEADLINE_MS),
    EVENTS_MAX_PER_CLIENT: '1000',
  };
  stack = await startLocalStack({ blocks: 120, env });
  client = new FuzzClient(stack.gateway, summary);
  const operations = await fetchEndpoints(stack.gateway);
  endpoints = finiteEndpoints(operations);
  streams = operations.filter(isEventStream);
  for (const stream of streams) {
    // Until the gateway follows the area's commit feed, its stream answers 503.
    let opening: StreamOpening | undefined;
    await waitFor(async () => {
      opening = await client.openStream({ method: 'GET', target: stream.template }, STREAM_FIRST_EVENT_MS);
      return opening.firstEvent !== undefined;
    }, `${stream.template} to stream`);
    streamStates.set(stream, streamStateOf(opening?.firstEvent));
  }
  listsBefore = await snapshotLists(stack.gateway, endpoints);
  examplePaths = new Map();
  const answersOk = async (endpoint: Endpoint, target: string) => {
    const outcome = await client.send({ method: endpoint.method, target, ...plainRequestOf(endpoint) });
    return isAnswer(outcome) && outcome.status === 200;
  };
  for (const endpoint of endpoints) {
    examplePaths.set(endpoint, await findExamplePath(endpoint, listsBefore, (target) => answersOk(endpoint, target)));
  }
  for (const stream of streams) examplePaths.set(stream, stream.template);
}, 180_000);

afterAll(async () => {
  await client?.close();
  await stack?.stop();
  process.stdout.write(`fuzz summary (${RESULTS_DIR}):\n${summary.write(RESULTS_DIR)}\n`);
}, 60_000);

const PROPERTY_TIMEOUT_MS = 20 * 60_000;

describe('hostile requests through the gateway', () => {
  it('reach every operation, each answering a plain request with 200', async () => {
    expect(endpoints.length).toBeGreaterThan(0);
    const answers = [];
    for (const endpoint of endpoints) {
      const outcome = await client.send({ method: endpoint.method, target: examplePath(endpoint), ...plainRequestOf(endpoint) });
      answers.push({ request: `${endpoint.method} ${examplePath(endpoint)}`, status: isAnswer(outcome) ? outcome.status : outcome.failure });
    }
    expect(answers.filter((answer) => answer.status !== 200)).toEqual([]);
    // Each area's live stream, opened on its position in beforeAll.
    expect(streams.map((stream) => stream.template).sort()).toEqual(['/api/guardian/events', '/api/nft/events', '/api/nft/exchange/events']);
  });

  it(
    'open a live stream on any Last-Event-ID: the events after an id it can resume from, else a reset at the current position',
    async () => {
      const property = (stream: Endpoint) => {
        const state = streamStates.get(stream)!;
        return fc.asyncProperty(lastEventIdValue(state), async (lastEventId) => {
          const expected = expectedOpening(lastEventId, state);
          const request = { method: 'GET', target: stream.template, headers: { 'last-event-id': lastEventId } };
          const opening = await client.openStream(request, expected === 'quiet' ? QUIET_STREAM_MS : STREAM_FIRST_EVENT_MS);
          // A stream watched for the events that must not come takes as long as it is watched: not a slow answer.
          const expectation = expected === 'quiet' ? { limitMs: QUIET_STREAM_MS + ANSWER_LIMIT_MS } : {};
          const label = `GET ${stream.template} Last-Event-ID: ${JSON.stringify(lastEventId).slice(0, 200)}`;
          const violations = client.judge(label, opening.outcome, expectation);
          failWith([...violations, ...openingProblems(opening, expected, state)]);
        });
      };
      expect(await failuresOf('stream-resume', 0.04, streams, describeEndpoint, property)).toEqual([]);
    },
    PROPERTY_TIMEOUT_MS,
  );

  it(
    'refuse any query key but lastEventId on a live stream with 422 naming a key sent, and open the stream on a query without others',
    async () => {
      const property = (stream: Endpoint) =>
        fc.asyncProperty(shownWire(queryString(stream)), async (query) => {
          const target = stream.template + query.text;
          // lastEventId is the one key a stream takes: Last-Event-ID for clients that cannot set headers.
          const keys = queryKeys(query.text).filter((key) => key !== LAST_EVENT_ID_QUERY_KEY);
          const lastEventId = queryValue(query.text, LAST_EVENT_ID_QUERY_KEY);
          const state = streamStates.get(stream)!;
          const opening = await client.openStream({ method: 'GET', target }, STREAM_FIRST_EVENT_MS);
          const violations = client.judge(`GET ${target}`, opening.outcome, {});
          const { outcome } = opening;
          // A URL over the server's limit is refused before any key is read.
          if (isAnswer(outcome) && outcome.status !== 431) {
            if (keys.length === 0)
              violations.push(...openingProblems(opening, lastEventId === undefined ? 'reset' : expectedOpening(lastEventId, state), state));
            else if (outcome.status !== 422) violations.push(`answered ${outcome.status}, expected 422 for the keys ${JSON.stringify(keys)}`);
            else if (!keys.some((key) => JSON.parse(outcome.body).message === `"${key}" is not allowed`))
              violations.push(`422 ${outcome.body.slice(0, 200)} names none of the keys ${JSON.stringify(keys).slice(0, 200)}`);
          }
          failWith(violations);
        });
      expect(await failuresOf('stream-query', 0.03, streams, describeEndpoint, property)).toEqual([]);
    },
    PROPERTY_TIMEOUT_MS,
  );

  it(
    'answer a live stream in any method but GET: HEAD with the head of a stream, OPTIONS for CORS, any other with 404',
    async () => {
      const property = (stream: Endpoint) =>
        fc.asyncProperty(fc.constantFrom(...METHODS.filter((method) => method !== 'GET')), fc.boolean(), async (method, withBody) => {
          const status = method === 'HEAD' ? 200 : method === 'OPTIONS' ? 204 : 404;
          const request = methodRequest(method, stream.template, withBody);
          const outcome = await sendRaw(client.port, { ...request, timeoutMs: CLIENT_TIMEOUT_MS });
          const violations = client.judge(showBytes(request.bytes), outcome, { status, head: request.head });
          if (method === 'HEAD' && isAnswer(outcome) && !/^text\/event-stream\b/.test(outcome.headers['content-type'] ?? ''))
            violations.push(`HEAD answered with content-type ${outcome.headers['content-type']}`);
          if (status === 404 && isAnswer(outcome) && outcome.body !== '' && JSON.parse(outcome.body).message !== 'Not Found')
            violations.push(`404 with ${outcome.body.slice(0, 200)}`);
          failWith(violations);
        });
      expect(await failuresOf('stream-methods', 0.02, streams, describeEndpoint, property)).toEqual([]);
    },
    PROPERTY_TIMEOUT_MS,
  );

  it(
    'answer hostile path ids within the contract, a malformed id with its 422 message',
    async () => {
      const withIds = endpoints.filter((endpoint) => endpoint.pathParameters.length > 0);
      const segmentsOf = (endpoint: Endpoint) =>
        fc.record(
          Object.fromEntries(
            endpoint.pathParameters.map((parameter) => [
              parameter.name,
              shownWire(idSegment(parameter, existingValues(endpoint, parameter, listsBefore))),
            ]),
          ),
        );
      const property = (endpoint: Endpoint) =>
        fc.asyncProperty(segmentsOf(endpoint), async (segments) => {
          const wire = Object.fromEntries(Object.entries(segments).map(([name, segment]) => [name, segment.text]));
          const request = { method: endpoint.method, target: fillPath(endpoint.template, wire), ...plainRequestOf(endpoint) };
          const outcome = await client.send(request);
          const violations = client.judge(`${request.method} ${request.target}`, outcome, {});
          const expected = endpoint.pathParameters.map((parameter) => malformedIdMessage(parameter, wire[parameter.name])).find(Boolean);
          // A URL over the server's limit is refused before any id is read.
          if (expected && isAnswer(outcome) && outcome.status !== 431 && !(outcome.status === 422 && JSON.parse(outcome.body).message === expected)) {
            violations.push(`expected 422 ${expected}, got ${outcome.status} ${outcome.body.slice(0, 200)}`);
          }
          failWith(violations);
        });
      expect(await failuresOf('ids', 0.25, withIds, describeEndpoint, property)).toEqual([]);
    },
    PROPERTY_TIMEOUT_MS,
  );

  it(
    'answer hostile query strings within the contract',
    async () => {
      const property = (endpoint: Endpoint) =>
        fc.asyncProperty(shownWire(queryString(endpoint)), async (query) =>
          failWith(await client.check({ method: endpoint.method, target: examplePath(endpoint) + query.text, ...plainRequestOf(endpoint) })),
        );
      expect(await failuresOf('query', 0.22, endpoints, describeEndpoint, property)).toEqual([]);
    },
    PROPERTY_TIMEOUT_MS,
  );

  it(
    'answer every method, known or not, within the contract',
    async () => {
      const property = (endpoint: Endpoint) =>
        fc.asyncProperty(fc.constantFrom(...METHODS), fc.boolean(), async (method, withBody) =>
          failWith(await client.checkRaw(methodRequest(method, examplePath(endpoint), withBody))),
        );
      expect(await failuresOf('methods', 0.1, endpoints, describeEndpoint, property)).toEqual([]);
    },
    PROPERTY_TIMEOUT_MS,
  );

  it(
    'answer hostile search bodies within the contract, no member name acting as an operator',
    async () => {
      const searches = endpoints.filter(isSearch);
      const property = (endpoint: Endpoint) =>
        fc.asyncProperty(searchBody(Object.keys(endpoint.bodySchema?.properties ?? {})), contentType, async (body, type) => {
          const target = `${endpoint.template}?limit=1`;
          const outcome = await client.send({
            method: 'POST',
            target,
            headers: type === undefined ? {} : { 'content-type': type },
            body: body.bytes,
          });
          const violations = client.judge(`POST ${target} ${type ?? '(no content-type)'} ${showBytes(body.bytes)}`, outcome, {});
          if (isAnswer(outcome) && outcome.status === 200 && body.topLevelNames.some(isInjectionName)) {
            const matches = JSON.parse(outcome.body).meta.totalCount;
            if (matches !== 0) violations.push(`a body naming ${body.topLevelNames.filter(isInjectionName).join(', ')} matched ${matches} records`);
          }
          failWith(violations);
        });
      expect(await failuresOf('bodies', 0.15, searches, describeEndpoint, property)).toEqual([]);
    },
    PROPERTY_TIMEOUT_MS,
  );

  it(
    'answer batch lookups with an entry per id in request order, or the message of the first problem of the body',
    async () => {
      const lookups = endpoints.filter(isBatchLookup);
      expect(lookups.length).toBeGreaterThan(0);
      const property = (endpoint: Endpoint) => {
        const existing = existingBatchIds(endpoint, listsBefore);
        const known = new Set(existing);
        return fc.asyncProperty(batchBody(existing), fc.constantFrom('', '?transform=false', '?transform=TRUE'), async (body, query) => {
          const target = `${endpoint.template}${query}`;
          const outcome = await client.send({ method: 'POST', target, headers: JSON_HEADERS, body: body.bytes });
          const violations = client.judge(`POST ${target} ${showBytes(body.bytes)}`, outcome, {});
          if (isAnswer(outcome)) violations.push(...batchAnswerProblems(expectedBatchAnswer(body.bytes), outcome.status, outcome.body, known));
          failWith(violations);
        });
      };
      expect(await failuresOf('batch', 0.05, lookups, describeEndpoint, property)).toEqual([]);
    },
    PROPERTY_TIMEOUT_MS,
  );

  it(
    'answer bodies over 64 KiB sent at the same time with 413 and stay usable',
    async () => {
      const search = endpoints.find(isSearch)!;
      const property = () =>
        fc.asyncProperty(oversizedBodies, async (sizes) => {
          const sent = sizes.map((size) =>
            client.check({ method: 'POST', target: search.template, headers: JSON_HEADERS, body: Buffer.alloc(size, 0x20) }, { status: 413 }),
          );
          const violations = (await Promise.all(sent)).flat();
          violations.push(...(await client.check({ method: 'GET', target: examplePath(endpoints[0]) }, { status: 200 })));
          failWith(violations);
        });
      expect(await failuresOf('oversized', 0.02, [search], describeEndpoint, property)).toEqual([]);
    },
    PROPERTY_TIMEOUT_MS,
  );

  it(
    'answer malformed requests with the error body',
    async () => {
      const property = () =>
        fc.asyncProperty(
          fc.constantFrom(...endpoints).chain((endpoint) => malformedRequest(examplePath(endpoint))),
          async (request: RawCase) => failWith(await client.checkRaw(request)),
        );
      expect(await failuresOf('malformed', 0.08, ['raw'], String, property)).toEqual([]);
    },
    PROPERTY_TIMEOUT_MS,
  );

  it(
    'answer a stalled body with 408 within the deadline',
    async () => {
      const withBodies = endpoints.filter((endpoint) => endpoint.bodySchema);
      const property = () =>
        fc.asyncProperty(
          fc.constantFrom(...withBodies).chain((endpoint) => stalledBody(endpoint.template)),
          async (request: RawCase) => failWith(await client.checkRaw(request, { status: 408, limitMs: STALLED_BODY_LIMIT_MS })),
        );
      expect(await failuresOf('stalled', 0.002, ['stalled'], String, property)).toEqual([]);
    },
    PROPERTY_TIMEOUT_MS,
  );

  it(
    'answer 404 to a path that differs from a route in letter case only',
    async () => {
      const property = (endpoint: Endpoint) =>
        fc.asyncProperty(fc.subarray(routeLetterPositions(endpoint, examplePath(endpoint)), { minLength: 1 }), async (positions) => {
          const target = flipLetterCase(examplePath(endpoint), positions);
          // `/auctions/cancEled` is an auction id, not a misspelt route.
          fc.pre(![...endpoints, ...streams].some((other) => matchesTemplate(other, target)));
          failWith(await client.check({ method: endpoint.method, target, ...plainRequestOf(endpoint) }, { status: 404 }));
        });
      // A live stream's path in another letter case is no stream: its 404 ends.
      expect(await failuresOf('letter-case', 0.05, [...endpoints, ...streams], describeEndpoint, property)).toEqual([]);
    },
    PROPERTY_TIMEOUT_MS,
  );

  // Last: a wildcard that backtracks can freeze an area, and the others should have had their turn.
  it(
    'answer any % wildcard pattern in group names and public keys in time',
    async () => {
      const withWildcards = endpoints.filter((endpoint) => endpoint.queryParameters.some(offersWildcards));
      expect(withWildcards.length).toBeGreaterThan(0);
      const property = (endpoint: Endpoint) =>
        fc.asyncProperty(shownWire(wildcardQuery(endpoint.queryParameters.filter(offersWildcards))), async (query) =>
          failWith(await client.check({ method: 'GET', target: endpoint.template + query.text })),
        );
      expect(await failuresOf('wildcards', 0.08, withWildcards, describeEndpoint, property)).toEqual([]);
    },
    PROPERTY_TIMEOUT_MS,
  );

  it('leave every list answering what it answered before', async () => {
    expect(await snapshotLists(stack!.gateway, endpoints)).toEqual(listsBefore);
  }, 120_000);
});
