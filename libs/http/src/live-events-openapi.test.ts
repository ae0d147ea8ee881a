import { liveEventSchema, streamUnavailableEventSchema } from '@ledger-api/http-core';
import { z } from 'zod';
import { buildOpenApiDocument } from './openapi';
import { defineRoute } from './route';

const listThings = defineRoute({
  method: 'get',
  path: '/nft/exchange/things',
  operationId: 'listThings',
  summary: 'Things',
  tags: ['Exchange things'],
  response: z.object({ data: z.array(z.string()) }),
  handler: async () => ({ data: [] }),
});

const document = buildOpenApiDocument({ title: 'Exchange', version: '1.0.0' }, [listThings], {
  liveEvents: { basePath: '/nft/exchange', tag: 'Exchange live events' },
});

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- the tests below assert the document's shape
const stream = (document.paths['/nft/exchange/events'] as Record<string, any>).get;

describe("an area's live stream in the OpenAPI document", () => {
  it('is a GET at <basePath>/events, named after the base path, under its tag, after the routes', () => {
    expect(Object.keys(document.paths)).toEqual(['/nft/exchange/things', '/nft/exchange/events']);
    expect(Object.keys(document.paths['/nft/exchange/events'])).toEqual(['get']);
    expect(stream).toMatchObject({ operationId: 'streamNftExchangeEvents', tags: ['Exchange live events'] });
    expect(document.tags).toEqual([{ name: 'Exchange things' }, { name: 'Exchange live events' }]);
  });

  it('says the rules of the stream: first frames, resuming, reset, keep-alive, refusals and limits', () => {
    for (const rule of [
      'retry: 2000',
      'event: position',
      'Last-Event-ID',
      'event: reset',
      ': keep-alive',
      'event: unavailable',
      'lastEventId',
      '(422)',
    ])
      expect(stream.description).toContain(rule);
  });

  it('takes Last-Event-ID as an optional header, or as the query parameter lastEventId', () => {
    expect(stream.parameters).toEqual([
      expect.objectContaining({ name: 'Last-Event-ID', in: 'header', required: false, schema: { type: 'string' } }),
      expect.objectContaining({ name: 'lastEventId', in: 'query', required: false, schema: { type: 'string' } }),
    ]);
  });

  it('answers text/event-stream whose events are LiveEvent frames, each event name with its data schema', () => {
    expect(stream.responses['200'].content).toEqual({
      'text/event-stream': {
        schema: { oneOf: [{ $ref: '#/components/schemas/LiveEvent' }, { $ref: '#/components/schemas/StreamUnavailableEvent' }] },
      },
    });
    expect(document.components.schemas).toHaveProperty('StreamUnavailableEvent.properties.data', { $ref: '#/components/schemas/StreamUnavailable' });
    expect(document.components.schemas).toHaveProperty('StreamUnavailable.required', ['reason', 'retryAfter']);
    const { LiveEvent } = document.components.schemas as Record<string, { oneOf: Array<{ properties: Record<string, unknown> }> }>;
    const dataByEvent = Object.fromEntries(LiveEvent.oneOf.map(({ properties }) => [(properties.event as { const: string }).const, properties.data]));
    expect(dataByEvent).toEqual({
      position: { $ref: '#/components/schemas/StreamPosition' },
      reset: { $ref: '#/components/schemas/StreamPosition' },
      'block.applied': { $ref: '#/components/schemas/BlockApplied' },
      'block.reverted': { $ref: '#/components/schemas/BlockReverted' },
    });
    expect(document.components.schemas).toHaveProperty('BlockApplied.required', ['height', 'id', 'timestamp', 'transactions']);
    expect(stream.responses['200'].headers['Cache-Control'].schema).toEqual({ type: 'string', enum: ['no-store'] });
  });

  it('lists its own 4xx and the shared ones: what a client should retry is a 200 stream, with Retry-After', () => {
    expect(Object.keys(stream.responses)).toEqual(['200', '400', '408', '422', '431']);
    expect(stream.responses['200'].headers).toHaveProperty('Retry-After');
    const message = (status: string) =>
      Object.values(stream.responses[status].content['application/json'].examples as Record<string, { value: { message: string } }>).map(
        (example) => example.value.message,
      );
    expect(message('422')).toEqual(['"from" is not allowed']);
  });

  it('has the example of each data schema fit the schema of its event', () => {
    const schemaOf = { position: 'StreamPosition', reset: 'StreamPosition', 'block.applied': 'BlockApplied', 'block.reverted': 'BlockReverted' };
    for (const [event, name] of Object.entries(schemaOf)) {
      const [data] = (document.components.schemas[name] as { examples: unknown[] }).examples;
      expect(liveEventSchema.safeParse({ event, id: 'model-1', data }).error).toBeUndefined();
    }
    const [unavailable] = (document.components.schemas.StreamUnavailable as { examples: unknown[] }).examples;
    expect(streamUnavailableEventSchema.safeParse({ event: 'unavailable', data: unavailable }).error).toBeUndefined();
  });
});
