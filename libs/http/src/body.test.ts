import type { Server } from 'node:http';
import type { Socket } from 'node:net';
import { Writable } from 'node:stream';
import { converse, serve, stop, writeChunkedBody } from '@ledger-api/http-core/testing';
import { createLogger, createMetrics } from '@ledger-api/observability';
import { z } from 'zod';
import { createHttpApp } from './app';
import { defineRoute } from './route';
import { waitFor } from '@ledger-api/test-kit';

const TOO_LARGE = { statusCode: 413, error: 'Payload Too Large', message: 'Payload content length greater than maximum allowed: 65536' };

const logLines: Array<{ msg: string; statusCode?: number }> = [];
let server: Server;
let port: number;

beforeAll(async () => {
  const sink = new Writable({ write: (chunk, _encoding, done) => done(void logLines.push(JSON.parse(String(chunk)))) });
  const app = createHttpApp({
    area: 'area',
    info: { title: 'Test', version: '1.0.0' },
    routes: [
      defineRoute({
        method: 'post',
        path: '/area/things/search',
        summary: 'Search things',
        tags: ['things'],
        body: z.object({}).passthrough(),
        response: z.object({ data: z.unknown() }),
        handler: async ({ body }) => ({ data: Object.keys(body) }),
      }),
    ],
    servedLedgerState: async () => ({ height: 7, blockId: 'b7', commit: '7:a', dataCommit: '7:a' }),
    logger: createLogger({ name: 'test', destination: sink }),
    metrics: createMetrics('test', false),
  });
  ({ server, port } = await serve(app.callback()));
});

afterAll(() => stop(server));

const SEARCH = 'POST /area/things/search HTTP/1.1\r\nHost: a\r\nContent-Type: application/json\r\n';
const NEXT = 'POST /area/things/search HTTP/1.1\r\nHost: a\r\nContent-Type: application/json\r\nContent-Length: 9\r\n\r\n{"ok":1}\n';

function post(bytes: number, chunked: boolean): Promise<Response> {
  const body = new TextEncoder().encode(JSON.stringify({ big: 'x'.repeat(bytes) }));
  const init: RequestInit & { duplex?: 'half' } = { method: 'POST', headers: { 'content-type': 'application/json' }, body };
  if (chunked) {
    // A stream body goes out chunked, without a Content-Length.
    init.body = new ReadableStream({
      start(controller) {
        for (let at = 0; at < body.length; at += 16_384) controller.enqueue(body.subarray(at, at + 16_384));
        controller.close();
      },
    });
    init.duplex = 'half';
  }
  return fetch(`http://127.0.0.1:${port}/area/things/search`, init);
}

describe('request bodies over 64 KiB', () => {
  it.each([
    ['declared with Content-Length', false],
    ['sent chunked', true],
  ])('are always refused with 413 when %s, several at once', async (_case, chunked) => {
    for (let round = 0; round < 3; round++) {
      const responses = await Promise.all([70_000, 500_000, 2_000_000, 10_000_000].map((bytes) => post(bytes, chunked)));
      for (const response of responses) {
        expect(response.status).toBe(413);
        expect(await response.json()).toEqual(TOO_LARGE);
      }
    }
  });

  it.each([
    [
      'sent chunked',
      (socket: Socket) => {
        socket.write(`${SEARCH}Transfer-Encoding: chunked\r\n\r\n`);
        writeChunkedBody(socket, 2 * 1024 * 1024, NEXT);
      },
    ],
    [
      'declared with Content-Length',
      (socket: Socket) => {
        socket.write(`${SEARCH}Content-Length: 1048576\r\n\r\n${'x'.repeat(1024 * 1024)}${NEXT}`);
      },
    ],
  ])('leave the connection usable for the next request when %s', async (_case, talk) => {
    const conversation = await converse(port, talk, 1500);
    expect(conversation.answers.map(({ status }) => status)).toEqual([413, 200]);
    expect(JSON.parse(conversation.answers[0].body)).toEqual(TOO_LARGE);
    expect(conversation.ending).toBe('open');
  });
});

describe('a client that goes away while its body is read', () => {
  it('is not logged as an error', async () => {
    const logged = logLines.length;
    await converse(port, (socket) => {
      socket.write(`${SEARCH}Content-Length: 1000\r\n\r\n{"partial":`);
      setTimeout(() => socket.destroy(), 50);
    });
    await waitFor(() => logLines.slice(logged).some(({ msg }) => msg === 'request completed'));
    const lines = logLines.slice(logged);
    expect(lines.map(({ msg }) => msg)).toEqual(['request completed']);
    expect(lines[0].statusCode).toBe(400);
  });
});
