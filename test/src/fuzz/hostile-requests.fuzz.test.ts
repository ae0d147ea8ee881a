import fc from 'fast-check';
import { startLocalStack, type LocalStack } from '../support/local-stack';
import { isAnswer } from '../support/raw-http';
import { idSegment, offersWildcards, queryString, wildcardQuery } from './arbitraries';
import { batchBody, contentType, isInjectionName, oversizedBodies, searchBody } from './bodies';
import { FuzzClient } from './client';
import { batchAnswerProblems, expectedBatchAnswer, malformedIdMessage } from './contract';
import {
  describeEndpoint,
  existingBatchIds,
  existingValues,
  fetchEndpoints,
  fillPath,
  findExamplePath,
  JSON_HEADERS,
  flipLetterCase,
  isBatchLookup,
  isSearch,
  matchesTemplate,
  plainRequestOf,
  routeLetterPositions,
  snapshotLists,
  type Endpoint,
  type ListSnapshot,
} from './endpoints';
import { METHODS, malformedRequest, methodRequest, stalledBody, type RawCase } from './raw-requests';
import {
  FUZZ_RUNS,
  FUZZ_SEED,
  PROPERTY_TIME_LIMIT_MS,
  REQUEST_DEADLINE_MS,
  RESULTS_DIR,
  runsPerTarget,
  seedFor,
  STALLED_BODY_LIMIT_MS,
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
let endpoints: Endpoint[];
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
  stack = await startLocalStack({ blocks: 120, env: { RATE_LIMIT_PER_MINUTE: '0', REQUEST_TIMEOUT_MS: String(REQUEST_DEADLINE_MS) } });
  client = new FuzzClient(stack.gateway, summary);
  endpoints = await fetchEndpoints(stack.gateway);
  listsBefore = await snapshotLists(stack.gateway, endpoints);
  examplePaths = new Map();
  const answersOk = async (endpoint: Endpoint, target: string) => {
    const outcome = await client.send({ method: endpoint.method, target, ...plainRequestOf(endpoint) });
    return isAnswer(outcome) && outcome.status === 200;
  };
  for (const endpoint of endpoints) {
    examplePaths.set(endpoint, await findExamplePath(endpoint, listsBefore, (target) => answersOk(endpoint, target)));
  }
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
  });

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
          fc.pre(!endpoints.some((other) => matchesTemplate(other, target)));
          failWith(await client.check({ method: endpoint.method, target, ...plainRequestOf(endpoint) }, { status: 404 }));
        });
      expect(await failuresOf('letter-case', 0.05, endpoints, describeEndpoint, property)).toEqual([]);
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
