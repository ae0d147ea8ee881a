import type { Server } from 'node:http';
import { expectWithinDeadline, TIMER_SLACK_MS } from '@ledger-api/test-kit';
import { readRequestBody } from './body';
import { converse, serve, stop, type Conversation } from './testing/raw-http';

let server: Server;
let port: number;
let bodiesRead = 0;
const REQUEST_TIMEOUT_MS = 300;
/** A stalled client waits out the server's deadline and its lateness, so the server is the one to end the conversation. */
const STALLED_CLIENT_PATIENCE_MS = REQUEST_TIMEOUT_MS + TIMER_SLACK_MS + 1_000;

beforeAll(async () => {
  ({ server, port } = await serve(
    async (req, res) => {
      // Answers at once, body unread, where a route would refuse a request early.
      if (req.url === '/early') return void res.writeHead(200, { 'Content-Length': 5 }).end('early');
      const body = await readRequestBody(req).catch(() => undefined);
      if (body) bodiesRead += 1;
      const answer = JSON.stringify({ method: req.method, host: req.headers.host ?? null, bytes: body?.length ?? null });
      res.writeHead(200, { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(answer) }).end(answer);
    },
    { requestTimeoutMs: REQUEST_TIMEOUT_MS },
  ));
});

afterAll(() => stop(server));

const send = (bytes: string, timeoutMs?: number) => converse(port, (socket) => socket.write(bytes), timeoutMs);

function expectRefusal(conversation: Conversation, status: number, error: string, message = error) {
  expect(conversation.answers).toHaveLength(1);
  const [answer] = conversation.answers;
  expect(answer.status).toBe(status);
  expect(answer.headers['content-type']).toMatch(/^application\/json/);
  expect(answer.headers.connection).toBe('close');
  expect(JSON.parse(answer.body)).toEqual({ statusCode: status, error, message });
  // The answer is followed by a clean close, never by a reset that could wipe it.
  expect(conversation.ending).toBe('closed');
}

describe('requests the HTTP parser refuses', () => {
  it.each([
    ['an unknown method', 'FOO /things HTTP/1.1\r\nHost: a\r\n\r\n'],
    ['a method in the wrong case', 'get /things HTTP/1.1\r\nHost: a\r\n\r\n'],
    ['CONNECT', 'CONNECT example.org:443 HTTP/1.1\r\nHost: example.org:443\r\n\r\n'],
  ])('answers %s with the 404 body', async (_case, request) => {
    expectRefusal(await send(request), 404, 'Not Found');
  });

  it.each([
    ['a request line that is not one', '\x01\x02 nonsense\r\n\r\n'],
    ['an unknown HTTP version', 'GET /things HTTP/9.9\r\nHost: a\r\n\r\n'],
    ['a header name with a space', 'GET /things HTTP/1.1\r\nHost: a\r\nBad Name: x\r\n\r\n'],
    ['Content-Length with Transfer-Encoding', 'POST /things HTTP/1.1\r\nHost: a\r\nContent-Length: 3\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n'],
    ['two different Content-Lengths', 'POST /things HTTP/1.1\r\nHost: a\r\nContent-Length: 3\r\nContent-Length: 4\r\n\r\nabcd'],
    ['a chunk size that is not hex', 'POST /things HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\nabc\r\n0\r\n\r\n'],
  ])('answers %s with the 400 body', async (_case, request) => {
    expectRefusal(await send(request), 400, 'Bad Request');
  });

  it('answers an HTTP/1.1 request without Host with the 400 body, and lets HTTP/1.0 go without', async () => {
    expectRefusal(await send('GET /things HTTP/1.1\r\n\r\n'), 400, 'Bad Request', 'Missing Host header');
    const [answer] = (await send('GET /things HTTP/1.0\r\n\r\n')).answers;
    expect(JSON.parse(answer.body)).toEqual({ method: 'GET', host: null, bytes: 0 });
  });

  it.each([
    ['a URL', `GET /${'a'.repeat(20_000)} HTTP/1.1\r\nHost: a\r\n\r\n`],
    ['headers', `GET /things HTTP/1.1\r\nHost: a\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`],
  ])('answers %s over the size limit with the 431 body', async (_case, request) => {
    expectRefusal(await send(request), 431, 'Request Header Fields Too Large');
  });

  it('answers a malformed request after a good one on the same connection', async () => {
    const conversation = await send('GET /things HTTP/1.1\r\nHost: a\r\n\r\nFOO /things HTTP/1.1\r\nHost: a\r\n\r\n');
    expect(conversation.answers.map(({ status }) => status)).toEqual([200, 404]);
    expect(conversation.ending).toBe('closed');
  });
});

describe('clients that stall', () => {
  it.each([
    ['its headers', 'GET /things HTTP/1.1\r\nHost: a\r\n'],
    ['its body', 'POST /things HTTP/1.1\r\nHost: a\r\nContent-Length: 100\r\n\r\n{"only":"part"'],
  ])('gets 408 when it stalls %s past the deadline', async (_case, request) => {
    const conversation = await send(request, STALLED_CLIENT_PATIENCE_MS);
    expectRefusal(conversation, 408, 'Request Timeout');
    expect(conversation.ms).toBeGreaterThanOrEqual(REQUEST_TIMEOUT_MS - 10);
    expectWithinDeadline(conversation.ms, REQUEST_TIMEOUT_MS);
  });

  it('is not served when it sends the rest of its body after its 408', async () => {
    const served = bodiesRead;
    const conversation = await converse(port, (socket) => {
      socket.write('POST /things HTTP/1.1\r\nHost: a\r\nContent-Length: 14\r\n\r\n{"only":');
      socket.once('data', () => socket.write('"part"}'));
    });
    expectRefusal(conversation, 408, 'Request Timeout');
    expect(bodiesRead).toBe(served);
  });

  it('gets no second answer when its body stalls after it was answered', async () => {
    const conversation = await send('POST /early HTTP/1.1\r\nHost: a\r\nContent-Length: 100\r\n\r\n{"only":"part"', STALLED_CLIENT_PATIENCE_MS);
    expect(conversation.answers.map(({ status }) => status)).toEqual([200]);
    expect(conversation.ending).toBe('closed');
    expectWithinDeadline(conversation.ms, REQUEST_TIMEOUT_MS);
  });
});

describe('idle keep-alive connections', () => {
  it('stay open past a load balancer idle timeout by default, and as long as configured', async () => {
    const keepAliveOf = async (keepAliveTimeoutMs?: number) => {
      const served = await serve(
        (_req, res) => {
          res.end('ok');
        },
        keepAliveTimeoutMs === undefined ? {} : { keepAliveTimeoutMs },
      );
      try {
        return served.server.keepAliveTimeout;
      } finally {
        await stop(served.server);
      }
    };
    expect(await keepAliveOf()).toBe(65_000);
    expect(await keepAliveOf(90_000)).toBe(90_000);
  });
});
