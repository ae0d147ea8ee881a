import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import type { RequestHandler } from 'express';
import { z } from 'zod';
import type { Logger } from '@ledger-api/observability';
import type { ServiceName, Upstream } from './upstreams';

const serviceDocumentSchema = z.looseObject({
  openapi: z.string().startsWith('3.1'),
  paths: z.record(z.string(), z.unknown()).default({}),
  components: z.record(z.string(), z.record(z.string(), z.unknown())).default({}),
  tags: z.array(z.looseObject({ name: z.string() })).default([]),
});

export type ServiceDocument = z.output<typeof serviceDocumentSchema>;

export interface MergedDocument {
  openapi: '3.1.0';
  info: { title: string; version: string; description: string };
  servers: [{ url: '/' }];
  tags: ServiceDocument['tags'];
  paths: Record<string, unknown>;
  components: Record<string, Record<string, unknown>>;
  'x-unavailable-areas'?: ServiceName[];
}

const GATEWAY_PATH_PREFIX = '/api';

function gatewayVersion(): string {
  // Both src (tests) and dist sit one level below the package root.
  const packageJson = JSON.parse(readFileSync(join(__dirname, '..', 'package.json'), 'utf8')) as { version: string };
  return packageJson.version;
}

const INFO: MergedDocument['info'] = {
  title: 'Ledger Query API',
  version: gatewayVersion(),
  description: 'Read-only queries over Guardian permissions, NFT collections and assets, and the NFT exchange.',
};

/**
 * One document for the whole public API: every service path gains the gateway's
 * `/api` prefix; components and tags are united, the first definition of a name winning.
 */
export function mergeOpenApiDocuments(
  documents: ServiceDocument[],
  unavailable: ServiceName[],
  onConflict: (section: string, name: string) => void = () => undefined,
): MergedDocument {
  const merged: MergedDocument = { openapi: '3.1.0', info: INFO, servers: [{ url: '/' }], tags: [], paths: {}, components: {} };
  for (const document of documents) {
    for (const [path, item] of Object.entries(document.paths)) merged.paths[`${GATEWAY_PATH_PREFIX}${path}`] = item;
    for (const [section, entries] of Object.entries(document.components)) {
      const target = (merged.components[section] ??= {});
      for (const [name, definition] of Object.entries(entries)) {
        if (!(name in target)) target[name] = definition;
        else if (!isDeepStrictEqual(target[name], definition)) onConflict(section, name);
      }
    }
    for (const tag of document.tags) {
      if (!merged.tags.some(({ name }) => name === tag.name)) merged.tags.push(tag);
    }
  }
  if (unavailable.length > 0) merged['x-unavailable-areas'] = unavailable;
  return merged;
}

export interface OpenApiSourceOptions {
  upstreams: Upstream[];
  fetchTimeoutMs: number;
  cacheTtlMs: number;
  logger: Logger;
}

/** Fetches and merges the services' documents, keeping the result for cacheTtlMs. */
export function createOpenApiSource({ upstreams, fetchTimeoutMs, cacheTtlMs, logger }: OpenApiSourceOptions) {
  let cached: { document: MergedDocument; expiresAt: number } | undefined;
  let pending: Promise<MergedDocument> | undefined;

  async function fetchDocument(upstream: Upstream): Promise<ServiceDocument | undefined> {
    try {
      const response = await fetch(`${upstream.baseUrl}/openapi.json`, { signal: AbortSignal.timeout(fetchTimeoutMs) });
      if (!response.ok) throw new Error(`answered ${response.status}`);
      return serviceDocumentSchema.parse(await response.json());
    } catch (error) {
      logger.warn({ err: error, service: upstream.service }, 'OpenAPI document unavailable; leaving the area out');
      return undefined;
    }
  }

  async function build(): Promise<MergedDocument> {
    const fetched = await Promise.all(upstreams.map(fetchDocument));
    const documents = fetched.filter((document) => document !== undefined);
    const unavailable = upstreams.filter((_, index) => fetched[index] === undefined).map(({ service }) => service);
    const document = mergeOpenApiDocuments(documents, unavailable, (section, name) =>
      logger.warn({ section, name }, 'services define an OpenAPI component differently; keeping the first'),
    );
    cached = { document, expiresAt: Date.now() + cacheTtlMs };
    return document;
  }

  return {
    async document(): Promise<MergedDocument> {
      if (cached && cached.expiresAt > Date.now()) return cached.document;
      // Concurrent requests after expiry share one round of fetches.
      pending ??= build().finally(() => {
        pending = undefined;
      });
      return pending;
    },
  };
}

export type OpenApiSource = ReturnType<typeof createOpenApiSource>;

export function openApiHandler(source: OpenApiSource, cacheTtlMs: number): RequestHandler {
  return async (_req, res) => {
    const document = await source.document();
    const complete = document['x-unavailable-areas'] === undefined;
    res.set('Cache-Control', complete ? `public, max-age=${Math.floor(cacheTtlMs / 1000)}` : 'no-store').json(document);
  };
}
