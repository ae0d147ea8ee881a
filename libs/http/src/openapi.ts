import { STATUS_CODES } from 'node:http';
import { z } from 'zod';
import type { AnyRoute } from './route';

export interface OpenApiInfo {
  title: string;
  version: string;
  description?: string;
}

type JsonSchema = Record<string, unknown>;

// Zod leaves the default out of the input schema of a piped (preprocessed) value,
// which every query parameter is; put it back so clients see it.
function keepDefaults(ctx: { zodSchema: z.core.$ZodType; jsonSchema: JsonSchema }): void {
  const definition = ctx.zodSchema._zod.def;
  if (definition.type === 'default') ctx.jsonSchema.default = (definition as z.core.$ZodDefaultDef).defaultValue;
}

function jsonSchema(schema: z.ZodType): JsonSchema {
  const generated = z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any', override: keepDefaults }) as JsonSchema;
  const { $schema: _dialect, ...rest } = generated;
  return rest;
}

const ERROR_BODY = jsonSchema(z.object({ statusCode: z.number().int(), error: z.string(), message: z.string() }).meta({ description: 'Error body' }));

function parameters(schema: z.ZodType | undefined, location: 'path' | 'query') {
  if (!(schema instanceof z.ZodObject)) return [];
  return Object.entries(schema.shape as Record<string, z.ZodType>).map(([name, field]) => {
    const fieldSchema = jsonSchema(field);
    return {
      name,
      in: location,
      required: location === 'path' || !field.safeParse(undefined).success,
      ...(typeof fieldSchema.description === 'string' && { description: fieldSchema.description }),
      schema: fieldSchema,
    };
  });
}

function responses(route: AnyRoute) {
  const statuses = [...new Set([422, ...(route.errors ?? []), 503])].sort();
  const errorResponses = Object.fromEntries(
    statuses.map((status) => [String(status), { description: STATUS_CODES[status], content: { 'application/json': { schema: ERROR_BODY } } }]),
  );
  return { '200': { description: 'OK', content: { 'application/json': { schema: jsonSchema(route.response) } } }, ...errorResponses };
}

function operation(route: AnyRoute) {
  return {
    summary: route.summary,
    ...(route.description && { description: route.description }),
    tags: route.tags,
    parameters: [...parameters(route.params, 'path'), ...parameters(route.query, 'query')],
    ...(route.body && {
      requestBody: { required: true, content: { 'application/json': { schema: jsonSchema(route.body) } } },
    }),
    responses: responses(route),
  };
}

/** The OpenAPI 3.1 document of an app, generated from the same schemas that validate its requests. */
export function buildOpenApiDocument(info: OpenApiInfo, routes: AnyRoute[]) {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const route of routes) {
    const path = route.path.replace(/:(\w+)/g, '{$1}');
    paths[path] = { ...paths[path], [route.method]: operation(route) };
  }
  const tags = [...new Set(routes.flatMap((route) => route.tags))].map((name) => ({ name }));
  return { openapi: '3.1.0', info, tags, paths };
}
