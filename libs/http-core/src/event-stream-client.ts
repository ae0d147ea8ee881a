import { request, type Agent, type IncomingHttpHeaders } from 'node:http';
import { createParser } from 'eventsource-parser';

/** One event as a client of a live stream receives it. */
export interface ReceivedEvent {
  event: string;
  id?: string;
  data: string;
}

export interface EventStreamHandlers {
  onEvent(event: ReceivedEvent): void;
  /** A comment line (a keep-alive). */
  onComment?(comment: string): void;
  /** A `retry` field: how long to wait before reconnecting, in ms. */
  onRetry?(ms: number): void;
  /** The stream ended, or could not be read (with the error). Called once. */
  onEnd(error?: Error): void;
}

export interface EventStreamConnection {
  status: number;
  headers: IncomingHttpHeaders;
  close(): void;
}

export interface EventStreamRequest {
  url: string;
  headers?: Record<string, string>;
  agent?: Agent;
  /** How long to wait for the answer's head. */
  connectTimeoutMs?: number;
}

/**
 * Opens a live stream and hands its events on as they arrive. Resolves with the answer's
 * head; an answer other than a 200 event stream is drained and ends at once (onEnd).
 */
export function openEventStream(target: EventStreamRequest, handlers: EventStreamHandlers): Promise<EventStreamConnection> {
  return new Promise((resolve, reject) => {
    let ended = false;
    const end = (error?: Error) => {
      if (ended) return;
      ended = true;
      handlers.onEnd(error);
    };
    const req = request(target.url, { headers: { accept: 'text/event-stream', ...target.headers }, agent: target.agent });
    const timer = setTimeout(() => req.destroy(new Error(`no answer within ${target.connectTimeoutMs} ms`)), target.connectTimeoutMs ?? 10_000);
    req.once('error', (error) => {
      clearTimeout(timer);
      reject(error);
      end(error);
    });
    req.once('response', (res) => {
      clearTimeout(timer);
      const connection = { status: res.statusCode ?? 0, headers: res.headers, close: () => req.destroy() };
      const isStream = connection.status === 200 && String(res.headers['content-type']).startsWith('text/event-stream');
      const parser = createParser({
        onEvent: ({ event, id, data }) => handlers.onEvent({ event: event ?? 'message', id, data }),
        onComment: (comment) => handlers.onComment?.(comment),
        onRetry: (ms) => handlers.onRetry?.(ms),
      });
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (isStream ? parser.feed(chunk) : undefined));
      res.once('close', () => end(res.complete ? undefined : new Error('the stream was cut off')));
      res.once('error', (error) => end(error));
      resolve(connection);
      if (!isStream) res.resume();
    });
    req.end();
  });
}
