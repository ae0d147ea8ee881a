import { blockTimestampFields } from '@ledger-api/config';
import { z } from 'zod';
import { rawTransaction, type LedgerRecord, type RawTransaction } from './ledger-record';

export const timestampResource = z
  .object(blockTimestampFields)
  .meta({ id: 'Timestamp', examples: [{ epoch: 124471592, unix: 1614572792, human: '2021-03-01T04:26:32.000Z' }] });

/** The transform=false item: a ledger transaction with blockId, blockHeight and sequence. */
export const rawTransactionResource = z
  .object({
    id: z.string(),
    typeGroup: z.number().int(),
    type: z.number().int(),
    blockId: z.string(),
    blockHeight: z.number().int(),
    sequence: z.number().int(),
  })
  .loose()
  .meta({
    id: 'LedgerTransaction',
    title: 'Ledger transaction',
    examples: [
      {
        id: '4820feb2314c93807b4a58b985199338485fb171894be726651c7c2cb150ac5e',
        version: 2,
        network: 23,
        typeGroup: 9000,
        type: 1,
        nonce: '2',
        senderPublicKey: '038cf8bfaeead0f4bf1ac355df98aab75f692f232397d591b11d00b377f850072a',
        fee: '371070592',
        amount: '0',
        asset: {
          nftToken: {
            collectionId: '3ffcfddb50fa7c46bf3e2076c03dfa114c77fe2f519638ad972665662760b8f9',
            attributes: { name: 'Void Sprite', hp: 22, rarity: 'common' },
          },
        },
        signature: '686715dc34bee906c462e85b35eea7d29117888f864ea16910b780d2d62955c075476c99a5f701ff72cd011aea38f072adf9c2891c4ee9fcd151c775d7027268',
        blockId: '2cc784c6fc9a7cb5f11bd1d021339eb676a3f46cd01da916850dd94a8d69631f',
        blockHeight: 2,
        sequence: 0,
      },
    ],
  });

/** What a route over records answers per item: the resource shape, or with transform=false the raw transaction. */
export const resourceOrTransaction = <R extends z.ZodType>(resource: R) => z.union([resource, rawTransactionResource]);

/** A record's presenter for routes that take `transform`: the resource shape, or with transform=false the raw transaction. */
export function recordPresenter<D extends LedgerRecord, R>(toResource: (doc: D) => R) {
  return (doc: D, transform: boolean): R | RawTransaction => (transform ? toResource(doc) : rawTransaction(doc));
}
