import { openEventStream, type ReceivedEvent } from '../event-stream-client';

/** Everything a live stream sent, as a test reads it. */
export interface RecordedEventStream {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  events: ReceivedEvent[];
  comments: string[];
  /** Every `retry` field, in ms. */
  retries: number[];
  /** Resolves when the server ends the stream. */
  ended: Promise<void>;
  close(): void;
}

/** Opens a live stream and records what arrives until the test closes it or the server ends it. */
export async function recordEventStream(url: string, headers: Record<string, string> = {}): Promise<RecordedEventStream> {
  const events: ReceivedEvent[] = [];
  const comments: string[] = [];
  const retries: number[] = [];
  let markEnded: () => void = () => undefined;
  const ended = new Promise<void>((resolve) => (markEnded = resolve));
  const connection = await openEventStream(
    { url, headers },
    {
      onEvent: (event) => events.push(event),
      onComment: (comment) => comments.push(comment),
      onRetry: (ms) => retries.push(ms),
      onEnd: () => markEnded(),
    },
  );
  return { status: connection.status, headers: connection.headers, events, comments, retries, ended, close: connection.close };
}
