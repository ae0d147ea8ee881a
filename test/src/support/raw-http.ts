import { connect } from 'node:net';

/**
 * HTTP/1.1 over a bare socket, for requests no HTTP client would send: unknown
 * methods, broken framing, missing Host, oversized heads, bodies that stall.
 */
export interface HttpAnswer {
  status: number;
  headers: Record<string, string>;
  body: string;
  ms: number;
}

export interface NoAnswer {
  failure: string;
  ms: number;
}

export type HttpOutcome = HttpAnswer | NoAnswer;

export const isAnswer = (outcome: HttpOutcome): outcome is HttpAnswer => 'status' in outcome;

export interface RawRequest {
  /** The bytes to send; the socket then stays open until the answer or the time limit. */
  bytes: Buffer;
  /** A HEAD answer announces a length but carries no body. */
  head?: boolean;
  timeoutMs: number;
}

interface Head {
  status: number;
  headers: Record<string, string>;
  bodyStart: number;
}

function parseHead(received: Buffer): Head | undefined {
  const end = received.indexOf('\r\n\r\n');
  if (end < 0) return undefined;
  const [statusLine, ...lines] = received.subarray(0, end).toString('latin1').split('\r\n');
  const status = /^HTTP\/1\.[01] (\d{3})/.exec(statusLine);
  if (!status) throw new Error(`not an HTTP answer: ${JSON.stringify(statusLine.slice(0, 80))}`);
  const headers: Record<string, string> = {};
  for (const line of lines) {
    const colon = line.indexOf(':');
    headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
  }
  return { status: Number(status[1]), headers, bodyStart: end + 4 };
}

/** The decoded chunked body, or undefined while the last chunk has not arrived. */
function dechunk(data: Buffer): Buffer | undefined {
  const parts: Buffer[] = [];
  for (let at = 0; ;) {
    const lineEnd = data.indexOf('\r\n', at);
    if (lineEnd < 0) return undefined;
    const size = parseInt(data.subarray(at, lineEnd).toString('latin1'), 16);
    if (size === 0) return Buffer.concat(parts);
    if (data.length < lineEnd + 2 + size + 2) return undefined;
    parts.push(data.subarray(lineEnd + 2, lineEnd + 2 + size));
    at = lineEnd + 2 + size + 2;
  }
}

/** The whole body once it has arrived; `closed` says the server ended the connection. */
function completeBody(head: Head, received: Buffer, isHead: boolean, closed: boolean): Buffer | undefined {
  const data = received.subarray(head.bodyStart);
  if (isHead || head.status === 204 || head.status === 304) return Buffer.alloc(0);
  if (head.headers['transfer-encoding']?.includes('chunked')) return dechunk(data);
  const length = head.headers['content-length'];
  if (length !== undefined) return data.length >= Number(length) ? data.subarray(0, Number(length)) : undefined;
  return closed ? data : undefined;
}

export function sendRaw(port: number, request: RawRequest): Promise<HttpOutcome> {
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    let received = Buffer.alloc(0);
    let settled = false;
    const settle = (outcome: HttpOutcome) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      socket.destroy();
      resolve(outcome);
    };
    const tryAnswer = (closed: boolean) => {
      try {
        // An interim 100 Continue precedes the real answer.
        let head = parseHead(received);
        while (head && head.status === 100) {
          received = received.subarray(head.bodyStart);
          head = parseHead(received);
        }
        const body = head && completeBody(head, received, request.head === true, closed);
        if (head && body) settle({ status: head.status, headers: head.headers, body: body.toString('utf8'), ms: elapsed() });
        else if (closed) settle({ failure: received.length ? 'connection closed mid-answer' : 'connection closed without an answer', ms: elapsed() });
      } catch (error) {
        settle({ failure: (error as Error).message, ms: elapsed() });
      }
    };
    const timer = setTimeout(() => settle({ failure: `no answer within ${request.timeoutMs} ms`, ms: elapsed() }), request.timeoutMs);
    socket.on('data', (chunk: Buffer) => {
      received = Buffer.concat([received, chunk]);
      tryAnswer(false);
    });
    socket.on('end', () => tryAnswer(true));
    socket.on('close', () => tryAnswer(true));
    socket.on('error', (error: NodeJS.ErrnoException) => {
      if (received.length) tryAnswer(true);
      settle({ failure: `socket error ${error.code ?? error.message}`, ms: elapsed() });
    });
    socket.write(request.bytes);
  });
}
