import type { AssetDoc } from '@ledger-api/nft-read-model';
import type { z } from 'zod';
import { BURNED, type assetDetailResource, type assetResource } from './schema';

/** An asset with the public key of its owner's address, as looked up for the page it is on; absent while unknown. */
export interface AssetWithOwnerKey extends AssetDoc {
  ownerKey?: string;
}

export function presentAsset(doc: AssetWithOwnerKey): z.infer<typeof assetResource> {
  const owner = doc.burned ? BURNED : doc.ownerKey;
  return {
    id: doc._id,
    ...(owner !== undefined && { ownerPublicKey: owner }),
    senderPublicKey: doc.senderPublicKey,
    collectionId: doc.collectionId,
    attributes: doc.attributes,
    timestamp: doc.timestamp,
  };
}

export function presentAssetDetail(doc: AssetWithOwnerKey): z.infer<typeof assetDetailResource> {
  const { senderPublicKey: _creator, ...detail } = presentAsset(doc);
  return detail;
}
