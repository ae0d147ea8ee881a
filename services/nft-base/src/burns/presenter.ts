import type { BurnDoc } from '@ledger-api/nft-read-model';
import type { z } from 'zod';
import type { burnResource } from './schema';

export function presentBurn(doc: BurnDoc): z.infer<typeof burnResource> {
  return { id: doc._id, senderPublicKey: doc.senderPublicKey, nftBurn: { nftId: doc.nftId }, timestamp: doc.timestamp };
}
