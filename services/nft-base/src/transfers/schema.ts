import { timestampResource } from '@ledger-api/nft-read-model';
import { z } from 'zod';

export const transferResource = z
  .object({
    id: z.string(),
    senderPublicKey: z.string(),
    nftTransfer: z.object({
      nftIds: z.array(z.string()).meta({ description: 'The NFTs the transfer names, in the order it names them' }),
      recipientId: z.string().meta({ description: 'Ledger address of the recipient' }),
    }),
    timestamp: timestampResource,
  })
  .meta({
    id: 'Transfer',
    examples: [
      {
        id: '1650dbf2a9063d2a2a765980932c9ba966e5f4303f7fe51fb3b406def7f2811c',
        senderPublicKey: '0325b983d104d6dbedf5ccee9024c048a52c0f723e50c56b0cd2ad36d5b5e61748',
        nftTransfer: {
          nftIds: [
            '7c50b9eeab4b5dddb3683c0617e2b0855e058726890e7fd4702196cf777d8d25',
            '60b292af3c8ba2ebe16356ecc11ac0e1ba28c1ea504a3e5397d8db882ddb90d1',
          ],
          recipientId: 'AQJajTEyu4hy6gZeBizfjrZwhC52rwEqPc',
        },
        timestamp: { epoch: 124456048, unix: 1614557248, human: '2021-03-01T00:07:28.000Z' },
      },
    ],
  });
