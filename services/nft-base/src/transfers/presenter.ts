import type { TransferDoc } from '@ledger-api/nft-read-model';
import type { z } from 'zod';
import type { transferResource } from './schema';

export function presentTransfer(doc: TransferDoc): z.infer<typeof transferResource> {
  return {
    id: doc._id,
    senderPublicKey: doc.senderPublicKey,
    nftTransfer: { nftIds: doc.nftIds, recipientId: doc.recipientId },
    timestamp: doc.timestamp,
  };
}
