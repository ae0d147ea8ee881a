import type { CollectionDoc } from '@ledger-api/nft-read-model';
import type { z } from 'zod';
import type { collectionResource, collectionSchemaResource } from './schema';

/** Exactly the Collection fields of the interface; allowedIssuers and metadata stay searchable, not shown. */
export function presentCollection(doc: CollectionDoc): z.infer<typeof collectionResource> {
  return {
    id: doc._id,
    senderPublicKey: doc.senderPublicKey,
    name: doc.name,
    description: doc.description,
    maximumSupply: doc.maximumSupply,
    jsonSchema: doc.jsonSchema,
    timestamp: doc.timestamp,
  };
}

/** The schema's own members sit between id/senderPublicKey and timestamp, which win on a clash. */
export function presentCollectionSchema(doc: CollectionDoc): z.infer<typeof collectionSchemaResource> {
  const { id: _id, senderPublicKey: _sender, timestamp: _timestamp, ...members } = doc.jsonSchema;
  return { id: doc._id, senderPublicKey: doc.senderPublicKey, ...members, timestamp: doc.timestamp };
}
