import { publicKey } from '@ledger-api/http';
import { timestampResource } from '@ledger-api/nft-read-model';
import { z } from 'zod';
import { jsonObject, limitedDepth } from '../search/json-body';

/** The owner's public key, `BURNED`, or left out while the owner's key is unknown. */
export const BURNED = 'BURNED';

export const assetResource = z
  .object({
    id: z.string(),
    ownerPublicKey: z
      .string()
      .optional()
      .meta({ description: `Public key of the current owner; "${BURNED}" once burned; left out while unknown` }),
    senderPublicKey: z.string().meta({ description: 'Public key of the creator' }),
    collectionId: z.string(),
    attributes: z.record(z.string(), z.unknown()),
    timestamp: timestampResource,
  })
  .meta({ title: 'Asset' });

export const assetDetailResource = assetResource.omit({ senderPublicKey: true }).meta({ title: 'Asset (by id)' });

/** Members are attribute names, any name; an asset matches when its attributes contain the body. */
export const assetSearchBody = limitedDepth(jsonObject()).meta({
  title: 'Asset search',
  description: 'Assets whose attributes contain these members: objects by the given keys, arrays by the given elements, scalars by equality',
});

export const walletParams = z.strictObject({ id: publicKey('Public key of the wallet') });
