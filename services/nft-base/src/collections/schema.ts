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
  .meta({ title: 'Collection' });

export const collectionSchemaResource = z
  .object({ id: z.string(), senderPublicKey: z.string(), properties: z.record(z.string(), z.unknown()).optional(), timestamp: timestampResource })
  .catchall(z.unknown())
  .meta({
    title: 'Collection schema',
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
