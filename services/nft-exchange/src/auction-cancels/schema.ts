import { timestampResource } from '@ledger-api/nft-read-model';
import { z } from 'zod';

export const canceledAuctionResource = z
  .object({
    id: z.string(),
    senderPublicKey: z.string(),
    nftAuctionCancel: z.object({ auctionId: z.string() }),
    timestamp: timestampResource,
  })
  .meta({
    id: 'CanceledAuction',
    title: 'Canceled auction',
    examples: [
      {
        id: '4adf2f6db154cdc5b0f86701201157b97de6ea5805dea1946986cfb594a0d528',
        senderPublicKey: '038cf8bfaeead0f4bf1ac355df98aab75f692f232397d591b11d00b377f850072a',
        nftAuctionCancel: { auctionId: '2900415307cfc9ebe0d15a29cdbe089f2e178a45cfaaa79adcf8b0d3f0934fb2' },
        timestamp: { epoch: 124455912, unix: 1614557112, human: '2021-03-01T00:05:12.000Z' },
      },
    ],
  });
