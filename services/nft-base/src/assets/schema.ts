import { publicKey } from '@ledger-api/http';
import { timestampResource } from '@ledger-api/nft-read-model';
import { z } from 'zod';
import { jsonObject, limitedDepth } from '../search/json-body';

/** The owner's public key, `BURNED`, or left out while the owner's key is unknown. */
export const BURNED = 'BURNED';

const ASSET_EXAMPLE = {
  id: '022c72dacc64a52ba4be0f2dd903a5993e6eaa75f5c2df4bf9aef857514a9c4c',
  ownerPublicKey: '0343fbd672b9402e93d829f03c13033a913a4dc3b8f645eb1b4cb8f31b4ff1ef3f',
  senderPublicKey: '038cf8bfaeead0f4bf1ac355df98aab75f692f232397d591b11d00b377f850072a',
  collectionId: '3ffcfddb50fa7c46bf3e2076c03dfa114c77fe2f519638ad972665662760b8f9',
  attributes: { name: 'Solar Drake', hp: 199, rarity: 'rare' },
  timestamp: { epoch: 124471592, unix: 1614572792, human: '2021-03-01T04:26:32.000Z' },
};

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
  .meta({ id: 'Asset', examples: [ASSET_EXAMPLE] });

// The by-id form leaves the creator out, as docs/api.md shows it.
const { senderPublicKey: _creator, ...ASSET_DETAIL_EXAMPLE } = ASSET_EXAMPLE;

export const assetDetailResource = assetResource
  .omit({ senderPublicKey: true })
  .meta({ id: 'AssetDetail', title: 'Asset (by id)', examples: [ASSET_DETAIL_EXAMPLE] });

/** Members are attribute names, any name; an asset matches when its attributes contain the body. */
export const assetSearchBody = limitedDepth(jsonObject()).meta({
  title: 'Asset search',
  description: 'Assets whose attributes contain these members: objects by the given keys, arrays by the given elements, scalars by equality',
});

export const walletParams = z.strictObject({ id: publicKey('Public key of the wallet') });
