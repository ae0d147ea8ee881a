import fc from 'fast-check';
import { z } from 'zod';
import * as exchange from '../exchange/payloads';
import * as base from './payloads';

/** The payload schemas as first written, plainly: what the replay's schemas must accept, refuse and say, exactly. */
function referenceSchemas() {
  const hexText = (length: number) =>
    z
      .string()
      .regex(/^[0-9a-fA-F]*$/, 'must only contain hexadecimal characters')
      .length(length)
      .transform((value) => value.toLowerCase());
  const [transactionId, publicKey] = [() => hexText(64), () => hexText(66)];
  const decimal = z.string().regex(/^\d+$/, 'must be a decimal string');
  const freeFormObject = z.custom((value) => typeof value === 'object' && value !== null && !Array.isArray(value), 'must be an object');
  const nestsWithin = (value: unknown, levelsLeft: number): boolean => {
    if (typeof value !== 'object' || value === null) return true;
    for (const member of Object.values(value)) if (levelsLeft === 0 || !nestsWithin(member, levelsLeft - 1)) return false;
    return true;
  };
  const storable = z.unknown().refine((tx) => nestsWithin(tx, 64), 'must not nest deeper than 64 levels to be stored');
  const nft = z.object({ id: transactionId(), senderPublicKey: publicKey(), nonce: decimal, fee: decimal, amount: decimal });
  const withAsset = (member: string, payload: z.ZodType) => storable.pipe(nft.extend({ asset: z.object({ [member]: payload }) }));
  const ids = z.array(transactionId());
  return {
    collection: withAsset(
      'nftCollection',
      z.object({
        name: z.string(),
        description: z.string(),
        maximumSupply: z.number().int(),
        jsonSchema: freeFormObject,
        allowedIssuers: z.array(publicKey()).optional(),
        metadata: freeFormObject.optional(),
      }),
    ),
    token: withAsset('nftToken', z.object({ collectionId: transactionId(), attributes: freeFormObject, recipientId: z.string().optional() })),
    transfer: withAsset('nftTransfer', z.object({ nftIds: ids, recipientId: z.string() })),
    burn: withAsset('nftBurn', z.object({ nftId: transactionId() })),
    auction: withAsset('nftAuction', z.object({ nftIds: ids, startAmount: decimal, expiration: z.object({ blockHeight: z.number().int() }) })),
    auctionCancel: withAsset('nftAuctionCancel', z.object({ auctionId: transactionId() })),
    bid: withAsset('nftBid', z.object({ auctionId: transactionId(), bidAmount: decimal })),
    bidCancel: withAsset('nftBidCancel', z.object({ bidId: transactionId() })),
    acceptTrade: withAsset('nftAcceptTrade', z.object({ auctionId: transactionId(), bidId: transactionId() })),
  };
}

const reference = referenceSchemas();
const schemas: Record<keyof typeof reference, [z.ZodType, keyof typeof assets]> = {
  collection: [base.collectionTransaction, 'nftCollection'],
  token: [base.tokenTransaction, 'nftToken'],
  transfer: [base.transferTransaction, 'nftTransfer'],
  burn: [base.burnTransaction, 'nftBurn'],
  auction: [exchange.auctionTransaction, 'nftAuction'],
  auctionCancel: [exchange.auctionCancelTransaction, 'nftAuctionCancel'],
  bid: [exchange.bidTransaction, 'nftBid'],
  bidCancel: [exchange.bidCancelTransaction, 'nftBidCancel'],
  acceptTrade: [exchange.acceptTradeTransaction, 'nftAcceptTrade'],
};

const hex = (length: number) => fc.string({ unit: fc.constantFrom(...'0123456789abcdefABCDEF'), minLength: length, maxLength: length });
const decimal = fc.bigInt({ min: 0n }).map(String);
const ids = fc.array(hex(64), { maxLength: 3 });

const assets = {
  nftCollection: fc.record(
    {
      name: fc.string(),
      description: fc.string(),
      maximumSupply: fc.integer(),
      jsonSchema: fc.object(),
      allowedIssuers: fc.array(hex(66), { maxLength: 2 }),
      metadata: fc.object(),
    },
    { requiredKeys: ['name', 'description', 'maximumSupply', 'jsonSchema'] },
  ),
  nftToken: fc.record({ collectionId: hex(64), attributes: fc.object(), recipientId: fc.string() }, { requiredKeys: ['collectionId', 'attributes'] }),
  nftTransfer: fc.record({ nftIds: ids, recipientId: fc.string() }),
  nftBurn: fc.record({ nftId: hex(64) }),
  nftAuction: fc.record({ nftIds: ids, startAmount: decimal, expiration: fc.record({ blockHeight: fc.integer() }) }),
  nftAuctionCancel: fc.record({ auctionId: hex(64) }),
  nftBid: fc.record({ auctionId: hex(64), bidAmount: decimal }),
  nftBidCancel: fc.record({ bidId: hex(64) }),
  nftAcceptTrade: fc.record({ auctionId: hex(64), bidId: hex(64) }),
};

const transactionWith = (member: keyof typeof assets) =>
  fc.record({
    id: hex(64),
    typeGroup: fc.constantFrom(9000, 9001),
    type: fc.nat({ max: 4 }),
    nonce: decimal,
    senderPublicKey: hex(66),
    fee: decimal,
    amount: decimal,
    asset: assets[member].map((payload) => ({ [member]: payload })),
    signature: hex(128),
  });

/** `levels` objects and arrays, one inside the other, around `leaf`: either side of the nesting limit. */
const nested = fc
  .tuple(fc.integer({ min: 60, max: 67 }), fc.constantFrom(1, null, {}, [], { a: 1 }, [1]), fc.array(fc.boolean(), { minLength: 67, maxLength: 67 }))
  .map(([levels, leaf, asArray]) => asArray.slice(0, levels).reduce<unknown>((inner, array) => (array ? [inner] : { a: inner }), leaf));

// Near misses of every member's type: hex of other lengths, cases and characters, surrogate pairs (zod counts code points), and so on.
const oddValue = fc.oneof(
  fc.constantFrom('', 'x', '-1', '1.5', ' 1', '0x1f', 'A'.repeat(64), 'g'.repeat(64), '😀'.repeat(32), '😀'.repeat(33), 'é'.repeat(66)),
  fc.constantFrom(0, 1.5, -1, NaN, null, undefined, true, [], {}, ['x']),
  hex(63),
  hex(65),
  hex(66),
  fc.string({ unit: 'binary', maxLength: 70 }),
  ids,
  fc.object(),
  nested,
);

/** The transaction with a few of its members, at any depth, replaced by odd values or left out. */
function mutated(pick: fc.GeneratorValue, tx: object): object {
  const copy = structuredClone(tx) as Record<string, unknown>;
  for (let change = pick(fc.nat, { max: 3 }); change > 0; change--) {
    const places: Array<[Record<string, unknown>, string]> = [];
    const visit = (value: unknown) => {
      if (typeof value !== 'object' || value === null) return;
      for (const name of Object.keys(value)) {
        places.push([value as Record<string, unknown>, name]);
        visit((value as Record<string, unknown>)[name]);
      }
    };
    visit(copy);
    const [parent, name] = places[pick(fc.nat, { max: places.length - 1 })];
    if (!pick(fc.nat, { max: 5 })) {
      if (Array.isArray(parent)) parent.splice(Number(name), 1);
      else delete parent[name];
    } else {
      // A copy: the arbitraries hand out the same constant objects ({}, [1], ...) again, and a later change inside one
      // put in twice would make the transaction hold itself.
      parent[name] = structuredClone(pick(() => oddValue));
    }
  }
  return copy;
}

/** Transactions with the schema's asset, most with some member changed, and now and then anything else. */
function inputFor(member: keyof typeof assets) {
  const valid = transactionWith(member);
  const other = fc.oneof(...Object.keys(assets).map((name) => transactionWith(name as keyof typeof assets)), oddValue);
  return fc.oneof(
    { arbitrary: valid, weight: 1 },
    { arbitrary: fc.tuple(valid, fc.gen()).map(([tx, pick]) => mutated(pick, tx)), weight: 4 },
    { arbitrary: other, weight: 1 },
  );
}

const outcome = (schema: z.ZodType, value: unknown, params?: { reportInput: boolean }) => {
  const result = schema.safeParse(value, params);
  return JSON.stringify(result.success ? { data: result.data } : { issues: result.error.issues });
};

describe('NFT transaction schemas, for any input', () => {
  it.each(Object.keys(reference) as Array<keyof typeof reference>)('%s: accepts, refuses and reads as the first schemas did', (name) => {
    const [schema, member] = schemas[name];
    fc.assert(
      fc.property(inputFor(member), (value) => {
        expect(outcome(schema, value)).toBe(outcome(reference[name], value));
        expect(outcome(schema, value, { reportInput: true })).toBe(outcome(reference[name], value, { reportInput: true }));
      }),
      { numRuns: 300 },
    );
  });

  it.each(Object.keys(schemas) as Array<keyof typeof schemas>)(
    '%s: can be compiled whole, as zod would otherwise silently parse it the slow way',
    (name) => {
      expect(() => z.compile(schemas[name][0], { strict: true })).not.toThrow();
    },
  );
});
