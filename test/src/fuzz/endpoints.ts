import { getJson } from '../support/processes';

/** The operations of the gateway's merged OpenAPI document: what the fuzz suite targets. */
export interface JsonSchema {
  $ref?: string;
  type?: string;
  pattern?: string;
  minLength?: number;
  maxLength?: number;
  maxItems?: number;
  description?: string;
  properties?: Record<string, JsonSchema>;
  items?: JsonSchema;
}

export interface Parameter {
  name: string;
  in: 'path' | 'query' | 'header';
  schema: JsonSchema;
}

export interface Endpoint {
  method: 'GET' | 'POST';
  /** e.g. `/api/nft/assets/{id}/wallets` */
  template: string;
  pathParameters: Parameter[];
  queryParameters: Parameter[];
  bodySchema?: JsonSchema;
  /** A live stream (docs/behaviour.md section 9): its answer is `text/event-stream` and never ends. */
  eventStream: boolean;
}

interface Operation {
  parameters?: Parameter[];
  requestBody?: { content?: Record<string, { schema?: JsonSchema }> };
  responses?: Record<string, { content?: Record<string, unknown> }>;
}

const METHODS = ['get', 'post'] as const;

const COMPONENT_SCHEMA = '#/components/schemas/';

export async function fetchEndpoints(gateway: string): Promise<Endpoint[]> {
  const { body } = await getJson(`${gateway}/api/openapi.json`);
  const paths = body.paths as Record<string, Partial<Record<(typeof METHODS)[number], Operation>>>;
  const components = (body.components?.schemas ?? {}) as Record<string, JsonSchema>;
  // A body schema may be a named component (the ids of a batch lookup); its members are what the fuzzing needs.
  const resolved = (schema: JsonSchema | undefined) =>
    schema?.$ref?.startsWith(COMPONENT_SCHEMA) ? components[schema.$ref.slice(COMPONENT_SCHEMA.length)] : schema;
  return Object.entries(paths).flatMap(([template, operations]) =>
    METHODS.filter((method) => operations[method]).map((method) => {
      const operation = operations[method]!;
      const parameters = operation.parameters ?? [];
      return {
        method: method.toUpperCase() as Endpoint['method'],
        template,
        pathParameters: parameters.filter((parameter) => parameter.in === 'path'),
        queryParameters: parameters.filter((parameter) => parameter.in === 'query'),
        bodySchema: resolved(operation.requestBody?.content?.['application/json']?.schema),
        eventStream: operation.responses?.['200']?.content?.['text/event-stream'] !== undefined,
      };
    }),
  );
}

export const describeEndpoint = (endpoint: Endpoint) => `${endpoint.method} ${endpoint.template}`;

export const isEventStream = (endpoint: Endpoint) => endpoint.eventStream;

/**
 * The operations whose answers end: every one but the live streams. Whatever reads whole
 * answers (examples, snapshots, the request-and-answer properties) lists operations through
 * this, since a live stream's answer would never end there.
 */
export const finiteEndpoints = (endpoints: Endpoint[]) => endpoints.filter((endpoint) => !isEventStream(endpoint));

/** A batch lookup (docs/behaviour.md section 10): its body is `{"ids": [...]}`. */
export const isBatchLookup = (endpoint: Endpoint) => endpoint.bodySchema?.properties?.ids?.type === 'array';

/** A search: a POST whose body is the search itself. */
export const isSearch = (endpoint: Endpoint) => endpoint.bodySchema !== undefined && !isBatchLookup(endpoint);

/**
 * Ids of the records a batch lookup answers: the keys of the list it hangs off
 * (`/api/nft/assets` for `/api/nft/assets/batch`), sorted, so a seed always picks the same.
 */
export function existingBatchIds(endpoint: Endpoint, snapshot: ListSnapshot): string[] {
  const list = endpoint.template.slice(0, endpoint.template.lastIndexOf('/'));
  const ids = new Set<string>();
  for (const page of snapshot[list] ?? []) {
    const items = (page as { body?: { data?: Record<string, unknown>[] } }).body?.data ?? [];
    for (const item of items) if (typeof item.id === 'string') ids.add(item.id);
  }
  return [...ids].sort();
}

/** Fills `{name}` placeholders with segments already in wire form. */
export function fillPath(template: string, segments: Record<string, string>): string {
  return template.replace(/\{(\w+)\}/g, (_, name: string) => segments[name]);
}

/** Positions in `path` (a filled `endpoint.template`) of the letters of the route's own segments, not of its ids. */
export function routeLetterPositions(endpoint: Endpoint, path: string): number[] {
  const templateSegments = endpoint.template.split('/');
  const positions: number[] = [];
  let offset = 0;
  path.split('/').forEach((segment, index) => {
    if (!templateSegments[index].startsWith('{')) {
      for (let at = 0; at < segment.length; at++) if (/[a-z]/i.test(segment[at])) positions.push(offset + at);
    }
    offset += segment.length + 1;
  });
  return positions;
}

/** Whether `path` names `endpoint`'s route, any segment standing for a parameter. */
export function matchesTemplate(endpoint: Endpoint, path: string): boolean {
  const segments = endpoint.template.split('/');
  const pathSegments = path.split('/');
  return segments.length === pathSegments.length && segments.every((segment, index) => segment.startsWith('{') || segment === pathSegments[index]);
}

export function flipLetterCase(path: string, positions: number[]): string {
  return [...path]
    .map((char, at) => (positions.includes(at) ? (char === char.toUpperCase() ? char.toLowerCase() : char.toUpperCase()) : char))
    .join('');
}

/** GET routes without path parameters: the lists, whose answers must never change. */
export const listEndpoints = (endpoints: Endpoint[]) =>
  finiteEndpoints(endpoints).filter((endpoint) => endpoint.method === 'GET' && endpoint.pathParameters.length === 0);

/** Every page of every list, as answered now. */
export type ListSnapshot = Record<string, unknown[]>;

export async function snapshotLists(gateway: string, endpoints: Endpoint[]): Promise<ListSnapshot> {
  const snapshot: ListSnapshot = {};
  for (const endpoint of listEndpoints(endpoints)) {
    const pages: unknown[] = [];
    // Links leave out `/api`; a list that is not paged answers once without `meta.next`.
    for (let path: string | null = endpoint.template; path;) {
      const { status, body } = await getJson(`${gateway}${path}`);
      pages.push({ status, body });
      path = body?.meta?.next ? `/api${body.meta.next}` : null;
    }
    snapshot[endpoint.template] = pages;
  }
  return snapshot;
}

function collectStrings(value: unknown, into: Set<string>): void {
  if (typeof value === 'string') into.add(value);
  else if (Array.isArray(value)) for (const item of value) collectStrings(item, into);
  else if (value && typeof value === 'object') for (const item of Object.values(value)) collectStrings(item, into);
}

/** The natural key of a list item: the id, else a group's name or a user's public key. */
const itemKey = (item: Record<string, unknown>) => item.id ?? item.name ?? item.publicKey;

/**
 * Existing values for a path parameter: first the keys of the list its route hangs
 * off (`/api/guardian/groups` for `/api/guardian/groups/{id}`), then every other
 * string in any list that fits the parameter's pattern. Sorted, so a seed always
 * picks the same.
 */
export function existingValues(endpoint: Endpoint, parameter: Parameter, snapshot: ListSnapshot): string[] {
  const keys = new Set<string>();
  const parentList = endpoint.template.slice(0, endpoint.template.indexOf(`/{${parameter.name}}`));
  for (const page of snapshot[parentList] ?? []) {
    const items = (page as { body?: { data?: Record<string, unknown>[] } }).body?.data ?? [];
    for (const item of items) if (typeof itemKey(item) === 'string') keys.add(itemKey(item) as string);
  }
  const fitting = new Set<string>();
  if (parameter.schema.pattern) {
    const fits = new RegExp(parameter.schema.pattern);
    collectStrings(Object.values(snapshot), fitting);
    for (const value of fitting) if (!fits.test(value) || keys.has(value)) fitting.delete(value);
  }
  return [...[...keys].sort(), ...[...fitting].sort()];
}

const EXAMPLE_CANDIDATES = 20;

export const JSON_HEADERS: Record<string, string> = { 'content-type': 'application/json' };

/** The id a plain batch lookup asks for: well-formed, and known to nothing. */
const UNKNOWN_ID = '0'.repeat(64);

/**
 * What a plain request of the endpoint sends besides its path: a search gets an empty
 * JSON body, which matches everything; a batch lookup asks for one id it answers null.
 */
export function plainRequestOf(endpoint: Endpoint): { headers?: Record<string, string>; body?: string } {
  if (endpoint.method !== 'POST') return {};
  return { headers: JSON_HEADERS, body: isBatchLookup(endpoint) ? JSON.stringify({ ids: [UNKNOWN_ID] }) : '{}' };
}

/**
 * A path of `endpoint` that answers 200 (`answersOk` says which do), its parameters
 * filled with existing values: several are tried, since some existing ids have no
 * such record (a burned asset has no wallet). The first candidate when none does.
 */
export async function findExamplePath(endpoint: Endpoint, snapshot: ListSnapshot, answersOk: (path: string) => Promise<boolean>): Promise<string> {
  const candidates = endpoint.pathParameters.map((parameter) => existingValues(endpoint, parameter, snapshot).slice(0, EXAMPLE_CANDIDATES));
  const pathAt = (index: number) =>
    fillPath(
      endpoint.template,
      Object.fromEntries(
        endpoint.pathParameters.map((parameter, at) => [parameter.name, encodeURIComponent(candidates[at][index] ?? 'f'.repeat(64))]),
      ),
    );
  for (let index = 0; index < Math.max(1, ...candidates.map((values) => values.length)); index++) {
    if (await answersOk(pathAt(index))) return pathAt(index);
  }
  return pathAt(0);
}
