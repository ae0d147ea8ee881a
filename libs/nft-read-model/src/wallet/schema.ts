import { z } from 'zod';

export const collectionHoldingResource = z.object({
  currentSupply: z.number().int().meta({ description: 'Live (unburned) assets of the collection' }),
  nftCollectionAsset: z.object({
    name: z.string(),
    description: z.string(),
    maximumSupply: z.number().int().meta({ description: 'The registered maximum supply minus burns' }),
    jsonSchema: z.record(z.string(), z.unknown()),
  }),
});

/** `nft.collections` of the base form and `nft.base.collections` of the exchange form. */
export const walletCollectionsResource = z
  .record(z.string(), collectionHoldingResource)
  .meta({ description: 'Every collection the wallet registered, keyed by collection id' });

export const baseWalletResource = z
  .object({
    address: z.string(),
    publicKey: z.string().optional().meta({ description: 'Left out while the ledger has not revealed it' }),
    nft: z.object({
      collections: walletCollectionsResource,
      assetsIds: z.array(z.string()).meta({ description: 'Assets the wallet owns now, in ledger order' }),
    }),
  })
  .meta({ title: 'Wallet (NFT base form)' });
