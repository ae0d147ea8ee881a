import { fetchEndpoints, findExamplePath, finiteEndpoints, plainRequestOf, snapshotLists } from '../fuzz/endpoints';
import { requestBytes } from './http-bytes';

/** A request that gets a 200 from an operation, found through the gateway. */
export interface ExampleRequest {
  /** Method and path, for failure messages. */
  name: string;
  method: 'GET' | 'POST';
  /** The path with its query, from the gateway's root. */
  path: string;
  request: { headers?: Record<string, string>; body?: string };
}

/**
 * One answered request for the API document and for every operation it lists, with data
 * that exists; the live streams, whose answers never end, left out.
 */
export async function exampleRequests(gateway: string): Promise<ExampleRequest[]> {
  const endpoints = finiteEndpoints(await fetchEndpoints(gateway));
  const lists = await snapshotLists(gateway, endpoints);
  const examples: ExampleRequest[] = [{ name: 'GET /api/openapi.json', method: 'GET', path: '/api/openapi.json', request: {} }];
  for (const endpoint of endpoints) {
    const request = plainRequestOf(endpoint);
    const answersOk = async (path: string) => (await requestBytes(`${gateway}${path}`, { method: endpoint.method, ...request })).status === 200;
    const path = await findExamplePath(endpoint, lists, answersOk);
    examples.push({ name: `${endpoint.method} ${path}`, method: endpoint.method, path, request });
  }
  return examples;
}
