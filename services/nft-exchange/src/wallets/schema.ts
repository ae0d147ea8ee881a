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
  .meta({
    id: 'ExchangeWallet',
    title: 'Wallet (exchange form)',
    examples: [
      {
        address: 'AQJajTEyu4hy6gZeBizfjrZwhC52rwEqPc',
        publicKey: '03c373f3472ea7d534f4d262c65230e5215b049211771b4d00de723726045c513e',
        nft: {
          base: {
            collections: {},
            tokenIds: {
              '914c68bd1253e6e272e35aaa6325db3c22447f51e032151f948f9291e7429cfe': {},
              '37945b56fd04440e0bd3c3bc318587bc2bc740825bf6c31e61d2ffc45c93bf86': {},
            },
          },
          exchange: {
            auctions: {
              a26ad210aa9ef7b40acf00e64bb38d09597172f96b55327b886cab1b44d5b348: {
                nftId: '914c68bd1253e6e272e35aaa6325db3c22447f51e032151f948f9291e7429cfe',
                nftIds: [
                  '914c68bd1253e6e272e35aaa6325db3c22447f51e032151f948f9291e7429cfe',
                  '37945b56fd04440e0bd3c3bc318587bc2bc740825bf6c31e61d2ffc45c93bf86',
                ],
                bids: [],
              },
            },
          },
        },
      },
    ],
  });

export type ExchangeWallet = z.infer<typeof exchangeWalletResource>;
