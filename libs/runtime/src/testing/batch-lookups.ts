import { STORABLE, STORABLE_HEADER } from '@ledger-api/http';
import { RecordingStore } from '@ledger-api/store/testing';
import type { AreaDefinition } from '../area';
import type { TestArea } from './types';

/** A batch lookup route (docs/behaviour.md section 10) and the by-id route whose answers its entries are. */
export interface BatchRoute {
  /** e.g. `/nft/assets/batch` */
  path: string;
  /** The by-id path of an id, e.g. `/nft/assets/<id>`. */
  byId(id: string): string;
}

const withQuery = (path: string, query: string) => (query ? `${path}?${query}` : path);

/**
 * Asks for `ids` in one batch and one by one with the same query: the batch answers 200
 * with one entry per id in request order, each exactly the `data` of the by-id answer,
 * or null where that answers 404. The platform's caches may keep each by-id answer but
 * never the batch, which is not marked storable. Gives the batch's entries.
 */
export async function expectBatchAnswersAsById(area: TestArea, route: BatchRoute, ids: string[], query = ''): Promise<unknown[]> {
  const batch = await area.request('POST', withQuery(route.path, query), { ids });
  expect({ status: batch.status, height: batch.headers['x-block-height'], storable: batch.headers[STORABLE_HEADER] }).toEqual({
    status: 200,
    height: expect.stringMatching(/^\d+$/),
    storable: undefined,
  });
  const expected: unknown[] = [];
  for (const id of ids) {
    const single = await area.request('GET', withQuery(route.byId(id), query));
    if (single.status !== 200 && single.status !== 404) throw new Error(`GET ${route.byId(id)} answered ${single.status}`);
    if (single.status === 200) expect(single.headers[STORABLE_HEADER]).toBe(STORABLE);
    expected.push(single.status === 200 ? single.body.data : null);
  }
  expect(batch.body).toEqual({ data: expected });
  return batch.body.data;
}

/** Requests a batch route refuses, with the status and message of the first problem of each. */
function refusals(validId: string): Array<[what: string, query: string, body: unknown, status: number, message: string]> {
  const three = [validId, validId.toUpperCase(), validId];
  return [
    ['no ids', '', {}, 422, '"ids" is required'],
    ['ids not an array', '', { ids: validId }, 422, '"ids" must be an array'],
    ['ids null', '', { ids: null }, 422, '"ids" must be an array'],
    ['no id', '', { ids: [] }, 422, '"ids" must contain at least 1 items'],
    ['101 ids', '', { ids: Array(101).fill(validId) }, 422, '"ids" must contain less than or equal to 100 items'],
    ['a non-hex id at 3', '', { ids: [...three, `${validId.slice(0, 63)}g`] }, 422, '"ids[3]" must only contain hexadecimal characters'],
    ['a short id at 3', '', { ids: [...three, validId.slice(1)] }, 422, '"ids[3]" length must be 64 characters long'],
    ['a long id at 3', '', { ids: [...three, `${validId}0`] }, 422, '"ids[3]" length must be 64 characters long'],
    ['a number at 0', '', { ids: [7] }, 422, '"ids[0]" must be a string'],
    ['another key', '', { ids: [validId], limit: 5 }, 422, '"limit" is not allowed'],
    ['an array body', '', [validId], 422, '"value" must be of type object'],
    ['an empty body', '', '', 422, '"value" must be of type object'],
    ['malformed JSON', '', '{"ids": [', 422, 'Invalid request payload JSON format'],
    [
      'a body over 64 KiB',
      '',
      JSON.stringify({ ids: [validId], pad: 'x'.repeat(64 * 1024) }),
      413,
      'Payload content length greater than maximum allowed: 65536',
    ],
    ['transform not a boolean', 'transform=yes', { ids: [validId] }, 422, '"transform" must be a boolean'],
    ['a paging parameter', 'page=2', { ids: [validId] }, 422, '"page" is not allowed'],
  ];
}

/** Every refusal of docs/behaviour.md sections 1 and 10 a batch route makes, each with its exact error body. */
export async function expectBatchRefusals(area: TestArea, path: string, validId: string): Promise<void> {
  for (const [what, query, body, status, message] of refusals(validId)) {
    const response = await area.request('POST', withQuery(path, query), body);
    const error = status === 413 ? 'Payload Too Large' : 'Unprocessable Entity';
    expect({ what, status: response.status, body: response.body }).toEqual({ what, status, body: { statusCode: status, error, message } });
  }
}

/**
 * The area with every read its routes make written down: give `definition` to
 * startTestArea and read `store.takeReads()` after a request. The projection
 * and the ledger state are read as before, past the record.
 */
export function withRecordedRouteReads(area: AreaDefinition): { definition: AreaDefinition; store: () => RecordingStore } {
  let recording: RecordingStore | undefined;
  const definition: AreaDefinition = {
    ...area,
    routes: (deps) => area.routes({ ...deps, store: (recording = new RecordingStore(deps.store)) }),
  };
  return {
    definition,
    store: () => {
      if (!recording) throw new Error('the area has not been started');
      return recording;
    },
  };
}
