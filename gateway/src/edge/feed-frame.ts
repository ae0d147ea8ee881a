import { liveEventSchema, parseCommitId, type ReceivedEvent, type StreamEvent, type StreamEventName } from '@ledger-api/http-core';

/** What one frame of a service's live stream comes to at the gateway. */
export type FeedFrame = { kind: 'event'; event: StreamEvent } | { kind: 'other' } | { kind: 'malformed'; reason: string };

const EVENT_NAMES: ReadonlySet<string> = new Set<StreamEventName>(['position', 'reset', 'block.applied', 'block.reverted']);

function parseJson(text: string): { value: unknown } | undefined {
  try {
    return { value: JSON.parse(text) };
  } catch {
    return undefined;
  }
}

/**
 * Reads a frame of a service's live stream against the stream's contract (liveEventSchema).
 * An event of another name is none of the gateway's business: a later version of the stream
 * may add some. One of these names whose id is no commit id, or whose data is not JSON of its
 * shape, is malformed: the edge cannot vouch for the area on what such a stream says. The
 * data is passed on as the service sent it, so fields the schema does not know yet survive.
 */
export function readFeedFrame(received: ReceivedEvent): FeedFrame {
  const { event, id } = received;
  if (!EVENT_NAMES.has(event)) return { kind: 'other' };
  const commit = parseCommitId(id);
  if (!commit) return { kind: 'malformed', reason: `a ${event} event whose id is no commit id` };
  const data = parseJson(received.data);
  if (!data) return { kind: 'malformed', reason: `a ${event} event whose data is not JSON` };
  const checked = liveEventSchema.safeParse({ event, id, data: data.value });
  if (!checked.success) {
    const [issue] = checked.error.issues;
    return { kind: 'malformed', reason: `a ${event} event whose ${issue.path.join('.')} is invalid: ${issue.message}` };
  }
  return { kind: 'event', event: { event: checked.data.event, commit, data: data.value as StreamEvent['data'] } };
}
