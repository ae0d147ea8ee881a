import type { Server } from 'node:http';
import { connect, type AddressInfo, type Socket } from 'node:net';
import { createHttpServer, type HttpServerOptions, type RequestHandlerOf } from '../http-server';

/** HTTP/1.1 over a bare socket, for requests no HTTP client sends: broken framing, unknown methods, stalls. */

export interface RawAnswer {
  status: number;
  headers: Record<string, string>;
  body: string;
}

export interface Conversation {
  answers: RawAnswer[];
  /** How the server left the connection: a clean close, a reset, or still open at the time limit. */
  ending: 'closed' | 'reset' | 'open';
  ms: number;
}

/** The answers in what a server sent, in order; every answer here carries a Content-Length. */
function parseAnswers(received: string): RawAnswer[] {
  const answers: RawAnswer[] = [];
  let rest = received;
  for (let headEnd = rest.indexOf('\r\n\r\n'); headEnd >= 0; headEnd = rest.indexOf('\r\n\r\n')) {
    const [statusLine, ...lines] = rest.slice(0, headEnd).split('\r\n');
    const headers = Object.fromEntries(
      lines.map((line) => [line.slice(0, line.indexOf(':')).toLowerCase(), line.slice(line.indexOf(':') + 1).trim()]),
    );
    const bodyEnd = headEnd + 4 + Number(headers['content-length'] ?? 0);
    answers.push({ status: Number(statusLine.split(' ')[1]), headers, body: rest.slice(headEnd + 4, bodyEnd) });
    rest = rest.slice(bodyEnd);
  }
  return answers;
}

/**
 * Opens a connection, lets `talk` write to it and collects what the server sends until it
 * closes the connection or `timeoutMs` passes.
 */
export function converse(port: number, talk: (socket: Socket) => void, timeoutMs = 3000): Promise<Conversation> {
  const started = performance.now();
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    let received = '';
    let ending: Conversation['ending'] = 'closed';
    const finish = () => {
      clearTimeout(timer);
      resolve({ answers: parseAnswers(received), ending, ms: performance.now() - started });
    };
    const timer = setTimeout(() => {
      ending = 'open';
      socket.off('close', finish);
      socket.destroy();
      finish();
    }, timeoutMs);
    socket.setEncoding('latin1');
    socket.on('data', (chunk: string) => (received += chunk));
    socket.on('error', () => (ending = 'reset'));
    socket.once('close', finish);
    talk(socket);
  });
}

/** Writes `bytes` bytes of chunked body in 64 KiB chunks, then `after`, minding back-pressure. */
export function writeChunkedBody(socket: Socket, bytes: number, after = ''): void {
  const chunk = `${(64 * 1024).toString(16)}\r\n${'x'.repeat(64 * 1024)}\r\n`;
  let sent = 0;
  const pump = () => {
    while (sent < bytes && !socket.destroyed) {
      sent += 64 * 1024;
      if (!socket.write(chunk)) {
        socket.once('drain', pump);
        return;
      }
    }
    if (!socket.destroyed) socket.write(`0\r\n\r\n${after}`);
  };
  pump();
}

export async function serve(handler: RequestHandlerOf, options?: HttpServerOptions): Promise<{ server: Server; port: number }> {
  const server = createHttpServer(handler, options);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, port: (server.address() as AddressInfo).port };
}

export async function stop(server: Server): Promise<void> {
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
}
