import { publicKey } from '@ledger-api/http';
import { timestampResource } from '@ledger-api/nft-read-model';
import { z } from 'zod';
import { jsonObject, limitedDepth } from '../search/json-body';

export const collectionResource = z
  .object({
    id: z.string(),
    senderPublicKey: z.string(),
    name: z.string(),
    description: z.string(),
    maximumSupply: z.number().int(),
    jsonSchema: z.record(z.string(), z.unknown()).meta({ description: '{properties: {<attribute_name>: {type: <json type name>}}}' }),
    timestamp: timestampResource,
  })
  .meta({
    id: 'Collection',
    examples: [
      {
        id: '3ffcfddb50fa7c46bf3e2076c03dfa114c77fe2f519638ad972665662760b8f9',
        senderPublicKey: '038cf8bfaeead0f4bf1ac355df98aab75f692f232397d591b11d00b377f850072a',
        name: 'Ledger Legends Cards',
        description: 'Collectible battle cards with hit points and rarity',
        maximumSupply: 2000,
        jsonSchema: {
          type: 'object',
          required: ['name', 'hp', 'rarity'],
          properties: { name: { type: 'string' }, hp: { type: 'integer' }, rarity: { type: 'string' } },
        },
        timestamp: { epoch: 124455600, unix: 1614556800, human: '2021-03-01T00:00:00.000Z' },
      },
    ],
  });

export const collectionSchemaResource = z
  .object({ id: z.string(), senderPublicKey: z.string(), properties: z.record(z.string(), z.unknown()).optional(), timestamp: timestampResource })
  .catchall(z.unknown())
  .meta({
    id: 'CollectionSchema',
    title: 'Collection schema',
    examples: [
      {
        id: '3ffcfddb50fa7c46bf3e2076c03dfa114c77fe2f519638ad972665662760b8f9',
        senderPublicKey: '038cf8bfaeead0f4bf1ac355df98aab75f692f232397d591b11d00b377f850072a',
        type: 'object',
        required: ['name', 'hp', 'rarity'],
        properties: { name: { type: 'string' }, hp: { type: 'integer' }, rarity: { type: 'string' } },
        timestamp: { epoch: 124455600, unix: 1614556800, human: '2021-03-01T00:00:00.000Z' },
      },
    ],
    description: 'Every top-level member of the collection jsonSchema, with the collection id, sender and timestamp',
  });

/** A collection matches when it contains the body; see containmentFilter. */
export const collectionSearchBody = limitedDepth(
  z.strictObject({
    name: z.string().optional(),
    description: z.string().optional(),
    maximumSupply: z.number().optional(),
    jsonSchema: jsonObject().optional(),
    allowedIssuers: z.array(z.string()).optional(),
    metadata: jsonObject().optional(),
    senderPublicKey: publicKey('Public key of the registrant').optional(),
  }),
).meta({
  title: 'Collection search',
  description: 'Collections containing these members: objects by the given keys, arrays by the given elements, scalars by equality',
});

export type CollectionSearch = z.output<typeof collectionSearchBody>;
