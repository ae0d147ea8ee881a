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
  .meta({
    id: 'BaseWallet',
    title: 'Wallet (NFT base form)',
    examples: [
      {
        address: 'AciUjKHCjvNS6sAnwxWT1phDNiqE7Vxxq1',
        publicKey: '038cf8bfaeead0f4bf1ac355df98aab75f692f232397d591b11d00b377f850072a',
        nft: {
          collections: {
            '1e18b846af77362aea1d65a2eb155f7d1a23028d2b45f4e9e310e0e2ba1710e5': {
              currentSupply: 11,
              nftCollectionAsset: {
                name: 'Genesis Badges',
                description: 'Badges for the first members of the community',
                maximumSupply: 25,
                jsonSchema: { type: 'object', required: ['badge', 'number'], properties: { badge: { type: 'string' }, number: { type: 'integer' } } },
              },
            },
          },
          assetsIds: ['d258b53469dd6e2ef8271fbaf435f0a86c00bcc2fd4dfc6db2c8debb50b0da42'],
        },
      },
    ],
  });
