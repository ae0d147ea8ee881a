import type { AssetDoc } from '@ledger-api/nft-model';
import type { z } from 'zod';
import { BURNED, type assetDetailResource, type assetResource } from './schema';

/** Public keys of owner addresses, as looked up for one page. */
export type OwnerKeys = ReadonlyMap<string, string>;

function ownerPublicKey(doc: AssetDoc, ownerKeys: OwnerKeys): string | undefined {
  if (doc.burned) return BURNED;
  return doc.ownerAddress === null ? undefined : ownerKeys.get(doc.ownerAddress);
}

export function presentAsset(doc: AssetDoc, ownerKeys: OwnerKeys): z.infer<typeof assetResource> {
  const owner = ownerPublicKey(doc, ownerKeys);
  return {
    id: doc._id,
    ...(owner !== undefined && { ownerPublicKey: owner }),
    senderPublicKey: doc.senderPublicKey,
    collectionId: doc.collectionId,
    attributes: doc.attributes,
    timestamp: doc.timestamp,
  };
}

export function presentAssetDetail(doc: AssetDoc, ownerKeys: OwnerKeys): z.infer<typeof assetDetailResource> {
  const { senderPublicKey: _creator, ...detail } = presentAsset(doc, ownerKeys);
  return detail;
}
