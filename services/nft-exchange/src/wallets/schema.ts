import { walletCollectionsResource } from '@ledger-api/nft-read-model';
import { z } from 'zod';

const walletAuction = z.object({
  nftId: z.string().meta({ description: 'The first of the auction NFTs' }),
  nftIds: z.array(z.string()),
  bids: z.array(z.string()).meta({ description: 'Active bids on the auction, in ledger order' }),
});

export const exchangeWalletResource = z
  .object({
    address: z.string(),
    publicKey: z.string().optional().meta({ description: 'Left out while the ledger has not revealed it' }),
    nft: z.object({
      base: z.object({
        collections: walletCollectionsResource,
        tokenIds: z.record(z.string(), z.object({})).meta({ description: 'The NFTs the wallet owns now, each an empty object' }),
      }),
      exchange: z.object({
        auctions: z.record(z.string(), walletAuction).meta({ description: "The wallet's active auctions, keyed by auction id" }),
      }),
    }),
  })
  .meta({ title: 'Wallet (exchange form)' });

export type ExchangeWallet = z.infer<typeof exchangeWalletResource>;
