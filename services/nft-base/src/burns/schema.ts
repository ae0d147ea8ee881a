import { timestampResource } from '@ledger-api/nft-read-model';
import { z } from 'zod';

export const burnResource = z
  .object({
    id: z.string(),
    senderPublicKey: z.string(),
    nftBurn: z.object({ nftId: z.string() }),
    timestamp: timestampResource,
  })
  .meta({
    id: 'Burn',
    examples: [
      {
        id: '79ef2e5d26c3299c592ea667d20952b6779bc1eac085fc09fa7c9afcddd40018',
        senderPublicKey: '03547daceb5b88e74aa82c33143abe342961dcd710a4c424c13343c25576699aef',
        nftBurn: { nftId: '85bba8b84f954fbe6bb56bcd3913e217ed4b565e555eefecd94a9b0cf95a6cef' },
        timestamp: { epoch: 124455760, unix: 1614556960, human: '2021-03-01T00:02:40.000Z' },
      },
    ],
  });
