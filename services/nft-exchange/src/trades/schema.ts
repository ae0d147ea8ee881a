import { publicKey, transactionId } from '@ledger-api/http';
import { timestampResource } from '@ledger-api/nft-read-model';
import { z } from 'zod';
import { auctionTermsResource } from '../auctions/schema';

/** The list and search form. */
export const tradeResource = z
  .object({
    id: z.string(),
    senderPublicKey: z.string(),
    completedTrade: z.object({ auctionId: z.string(), bidId: z.string() }),
    timestamp: timestampResource,
  })
  .meta({
    id: 'Trade',
    examples: [
      {
        id: '50ab20567c4a124b2c6bfd93fd838fc6a13785ba6fecd7d37c52c7042cb31082',
        senderPublicKey: '038fab33e9a8beb3126a2f9a88c2d5bc6bda5b727466ec97786cb92cf2cac9b25f',
        completedTrade: {
          auctionId: '9dc55e9fff579bd4d6f788ff4127ccb7e39e5dc3a9da7e4846d0867c2d3c822f',
          bidId: '56f00a743c0c700cc64aa09fb88fddf64a7a6e1499ef72882be9da657852b14d',
        },
        timestamp: { epoch: 124455680, unix: 1614556880, human: '2021-03-01T00:01:20.000Z' },
      },
    ],
  });

/** The by-id form: the auction and the accepted bid expanded. */
export const tradeDetailResource = z
  .object({
    id: z.string(),
    senderPublicKey: z.string(),
    completedTrade: z.object({
      auction: z.object({ id: z.string(), ...auctionTermsResource.shape }).optional(),
      bid: z.object({ id: z.string(), auctionId: z.string(), bidAmount: z.string().meta({ description: 'Decimal string' }) }).optional(),
    }),
    timestamp: timestampResource,
  })
  .meta({
    id: 'TradeDetail',
    title: 'Trade (by-id form)',
    description: 'auction and bid are left out only if the ledger never recorded them',
    examples: [
      {
        id: '50ab20567c4a124b2c6bfd93fd838fc6a13785ba6fecd7d37c52c7042cb31082',
        senderPublicKey: '038fab33e9a8beb3126a2f9a88c2d5bc6bda5b727466ec97786cb92cf2cac9b25f',
        completedTrade: {
          auction: {
            id: '9dc55e9fff579bd4d6f788ff4127ccb7e39e5dc3a9da7e4846d0867c2d3c822f',
            nftId: '0d982d528f69368b1e7586ded5fb29454cdd8c1d95ad6f2e083bf77ddd0d643a',
            nftIds: ['0d982d528f69368b1e7586ded5fb29454cdd8c1d95ad6f2e083bf77ddd0d643a'],
            startAmount: '3260000000',
            expiration: { blockHeight: 218 },
          },
          bid: {
            id: '56f00a743c0c700cc64aa09fb88fddf64a7a6e1499ef72882be9da657852b14d',
            auctionId: '9dc55e9fff579bd4d6f788ff4127ccb7e39e5dc3a9da7e4846d0867c2d3c822f',
            bidAmount: '3846800001',
          },
        },
        timestamp: { epoch: 124455680, unix: 1614556880, human: '2021-03-01T00:01:20.000Z' },
      },
    ],
  });

export const tradeSearchBody = z
  .strictObject({
    senderPublicKey: publicKey('Public key of the seller who accepted the bid').optional(),
    auctionId: transactionId('The auction traded').optional(),
    bidId: transactionId('The accepted bid').optional(),
  })
  .meta({ description: 'Members combine with AND; `{}` matches every trade' });

export type TradeSearch = z.output<typeof tradeSearchBody>;
