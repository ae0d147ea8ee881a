import type { LiveEventSource, StreamEvent } from '@ledger-api/http';
import type { CommitRecord } from '@ledger-api/ledger';
import type { CommitFeed } from './commit-feed';

/** A commit as clients of the live stream see it; a rollback changes no block, so they see nothing of it. */
export function streamEventOf(readModel: string, record: CommitRecord): StreamEvent | undefined {
  const commit = { readModel, generation: record.generation, changedAt: record.changedAt };
  if (record.kind === 'rollback' || !record.block) return undefined;
  const { height, id } = record.block;
  if (record.kind === 'block.reverted') return { event: 'block.reverted', commit, data: { height, id } };
  return { event: 'block.applied', commit, data: { height, id, timestamp: record.timestamp, transactions: record.transactions ?? [] } };
}

/** The live stream of an area, served from its commit feed. */
export function commitFeedEvents(feed: CommitFeed): LiveEventSource {
  return {
    position() {
      const { readModel, generation, changedAt, position } = feed.current();
      return { commit: { readModel, generation, changedAt }, data: { height: position.height, id: position.blockId } };
    },
    async eventsAfter({ generation }) {
      const { readModel } = feed.current();
      const records = await feed.recordsAfter(generation);
      return records?.flatMap((record) => streamEventOf(readModel, record) ?? []);
    },
    subscribe(listener) {
      return feed.subscribe((change) => {
        if (change.kind === 'reset') return listener(undefined);
        const event = streamEventOf(feed.current().readModel, change.record);
        if (event) listener(event);
      });
    },
  };
}
