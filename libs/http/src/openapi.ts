import { errorBodySchema, type JsonSchema } from '@ledger-api/http-core';
import { z } from 'zod';
import { liveEventsOperation, liveEventsPath, type LiveEventsDocumentation } from './live-events-openapi';
import { operationResponses, sharedResponseComponents } from './openapi-responses';
import { SchemaComponents } from './openapi-schema';
import type { AnyRoute } from './route';

export interface OpenApiInfo {
  title: string;
  version: string;
  description?: string;
}

function parameters(schemas: SchemaComponents, schema: z.ZodType | undefined, location: 'path' | 'query') {
  if (!(schema instanceof z.ZodObject)) return [];
  return Object.entries(schema.shape as Record<string, z.ZodType>).map(([name, field]) => {
    const fieldSchema = schemas.toJsonSchema(field);
    return {
      name,
      in: location,
      required: location === 'path' || !field.safeParse(undefined).success,
      ...(typeof fieldSchema.description === 'string' && { description: fieldSchema.description }),
      schema: fieldSchema,
    };
  });
}

function operation(route: AnyRoute, schemas: SchemaComponents) {
  return {
    ...(route.operationId && { operationId: route.operationId }),
    summary: route.summary,
    ...(route.description && { description: route.description }),
    tags: route.tags,
    parameters: [...parameters(schemas, route.params, 'path'), ...parameters(schemas, route.query, 'query')],
    ...(route.body && {
      requestBody: { required: true, content: { 'application/json': { schema: schemas.toJsonSchema(route.body) } } },
    }),
    responses: operationResponses(route, schemas.toJsonSchema(route.response)),
  };
}

/** The names of the `section` components that `value` refers to. */
function referencedNames(value: unknown, section: string): Set<string> {
  const prefix = `#/components/${section}/`;
  const names = new Set<string>();
  JSON.stringify(value, (key, member: unknown) => {
    if (key === '$ref' && typeof member === 'string' && member.startsWith(prefix)) names.add(member.slice(prefix.length));
    return member;
  });
  return names;
}

const pick = <T>(entries: Record<string, T>, names: Set<string>) => Object.fromEntries(Object.entries(entries).filter(([name]) => names.has(name)));

/** The shared responses the operations use, and the headers those and the operations use. */
function usedComponents(paths: Record<string, unknown>, schemas: Record<string, JsonSchema>) {
  const shared = sharedResponseComponents();
  const responses = pick(shared.responses, referencedNames(paths, 'responses'));
  const headers = pick(shared.headers, referencedNames([paths, responses], 'headers'));
  return { schemas, responses, headers };
}

export interface OpenApiDocumentOptions {
  /** The area's live stream, listed after its routes. */
  liveEvents?: LiveEventsDocumentation;
}

type Operation = ReturnType<typeof operation> | ReturnType<typeof liveEventsOperation>;

/** The OpenAPI 3.1 document of an app, generated from the same schemas that validate its requests. */
export function buildOpenApiDocument(info: OpenApiInfo, routes: AnyRoute[], { liveEvents }: OpenApiDocumentOptions = {}) {
  const schemas = new SchemaComponents();
  const paths: Record<string, Record<string, Operation>> = {};
  for (const route of routes) {
    const path = route.path.replace(/:(\w+)/g, '{$1}');
    paths[path] = { ...paths[path], [route.method]: operation(route, schemas) };
  }
  if (liveEvents) paths[liveEventsPath(liveEvents.basePath)] = { get: liveEventsOperation(liveEvents, schemas) };
  // Every error response refers to the error body.
  schemas.toJsonSchema(errorBodySchema);
  const tagNames = [...routes.flatMap((route) => route.tags), ...(liveEvents ? [liveEvents.tag] : [])];
  const tags = [...new Set(tagNames)].map((name) => ({ name }));
  return { openapi: '3.1.0', info, tags, paths, components: usedComponents(paths, schemas.schemas()) };
}
