import { hexText } from '@ledger-api/config';
import { z } from 'zod';

// NFT transaction payloads (docs/ledger-events.md sections 2 and 3). Members the
// ledger may add are ignored; free-form objects are kept exactly as given,
// since their member names are data.

// Ids and public keys are kept lower-cased, as the API looks them up; a payload's problem reads as it does for a request.
export const transactionId = () => hexText(64);
const publicKey = () => hexText(66);

/** Amounts and nonces: decimal strings of any size. */
export const decimal = z.string().regex(/^\d+$/, 'must be a decimal string');

const freeFormObject = z.custom<Record<string, unknown>>(
  (value) => typeof value === 'object' && value !== null && !Array.isArray(value),
  'must be an object',
);

/**
 * NFT records keep parts of their transaction as received (attributes,
 * schemas, metadata), and undo records wrap those in a few more levels;
 * MongoDB refuses documents nested deeper than 100 levels, and copying them
 * recursively would exhaust the stack.
 */
const MAX_TRANSACTION_NESTING = 64;

const isObject = (value: unknown): value is object => typeof value === 'object' && value !== null;

/**
 * Whether no member of the object lies more than `levelsLeft` levels below it.
 * Descends at most that far, so no depth of input can exhaust the stack. It
 * runs on every replayed transaction, so it makes no lists of members and
 * steps only into members that are objects; a transaction comes from
 * JSON.parse, so its arrays have no holes and its objects no inherited members.
 */
function membersNestWithin(value: object, levelsLeft: number): boolean {
  if (levelsLeft === 0) return Object.keys(value).length === 0;
  if (Array.isArray(value)) {
    for (let index = 0; index < value.length; index++) {
      const member: unknown = value[index];
      if (isObject(member) && !membersNestWithin(member, levelsLeft - 1)) return false;
    }
    return true;
  }
  for (const name in value) {
    const member: unknown = value[name as keyof typeof value];
    if (isObject(member) && !membersNestWithin(member, levelsLeft - 1)) return false;
  }
  return true;
}

const storableTransaction = z
  .unknown()
  .refine(
    (tx) => !isObject(tx) || membersNestWithin(tx, MAX_TRANSACTION_NESTING),
    `must not nest deeper than ${MAX_TRANSACTION_NESTING} levels to be stored`,
  );

/** The members of every NFT transaction its records are built from. */
const nftTransaction = z.object({ id: transactionId(), senderPublicKey: publicKey(), nonce: decimal, fee: decimal, amount: decimal });

/**
 * An NFT transaction whose asset carries `member`, of the given shape.
 * Replay reads every NFT transaction with one of these, so each is compiled:
 * zod reads a valid one with code generated for the whole schema, and parses
 * anything else as usual, so results and issues stay the same. Compile the
 * schema finally used: one derived from a compiled schema is not compiled.
 */
export function nftTransactionWith<Member extends string, Payload extends z.ZodType>(member: Member, payload: Payload) {
  return z.compile(storableTransaction.pipe(nftTransaction.extend({ asset: z.object({ [member]: payload } as Record<Member, Payload>) })));
}

export const collectionTransaction = nftTransactionWith(
  'nftCollection',
  z.object({
    name: z.string(),
    description: z.string(),
    maximumSupply: z.number().int(),
    jsonSchema: freeFormObject,
    allowedIssuers: z.array(publicKey()).optional(),
    metadata: freeFormObject.optional(),
  }),
);

export const tokenTransaction = nftTransactionWith(
  'nftToken',
  z.object({ collectionId: transactionId(), attributes: freeFormObject, recipientId: z.string().optional() }),
);

export const transferTransaction = nftTransactionWith('nftTransfer', z.object({ nftIds: z.array(transactionId()), recipientId: z.string() }));

export const burnTransaction = nftTransactionWith('nftBurn', z.object({ nftId: transactionId() }));

/** The payload of a transaction (its `asset` field) as its schema reads it. */
export type PayloadOf<Schema extends z.ZodType<{ asset: unknown }>> = z.infer<Schema>['asset'];
