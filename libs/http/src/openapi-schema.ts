import { isDeepStrictEqual } from 'node:util';
import type { JsonSchema } from '@ledger-api/http-core';
import { z } from 'zod';

const LOCAL_DEFINITION = '#/$defs/';
const COMPONENT_SCHEMA = '#/components/schemas/';

// Zod leaves the default out of the input schema of a piped (preprocessed) value,
// which every query parameter is, and drops one declared with `.meta({ default })`
// on an optional value; put them back so clients see them.
function keepDefault(zodSchema: z.core.$ZodType, json: JsonSchema): void {
  const definition = zodSchema._zod.def;
  if (definition.type === 'default') json.default = (definition as z.core.$ZodDefaultDef).defaultValue;
  const declared = z.globalRegistry.get(zodSchema)?.default;
  if (declared !== undefined) json.default = declared;
}

// Zod also drops the examples of a schema whose value a transform changes (an
// object holding a lower-cased id, say), though they show what a client sends.
function keepExamples(zodSchema: z.core.$ZodType, json: JsonSchema): void {
  const declared = z.globalRegistry.get(zodSchema)?.examples;
  if (declared !== undefined && json.examples === undefined) json.examples = declared;
}

/**
 * `z.number().int()` bounds every integer by the safe-integer range, which says nothing
 * a client needs; and a bound given twice (`positive()` and `minimum: 1`) trips linters.
 * Only the stricter of an inclusive and an exclusive bound is kept.
 */
function tidyBounds(json: JsonSchema): void {
  if (json.minimum === Number.MIN_SAFE_INTEGER) delete json.minimum;
  if (json.maximum === Number.MAX_SAFE_INTEGER) delete json.maximum;
  const { minimum, exclusiveMinimum, maximum, exclusiveMaximum } = json;
  if (typeof minimum === 'number' && typeof exclusiveMinimum === 'number') delete json[minimum > exclusiveMinimum ? 'exclusiveMinimum' : 'minimum'];
  if (typeof maximum === 'number' && typeof exclusiveMaximum === 'number') delete json[maximum < exclusiveMaximum ? 'exclusiveMaximum' : 'maximum'];
}

/** Zod's local `#/$defs/<id>` references, pointed at the document's components instead. */
function pointAtComponents<T>(value: T): T {
  if (Array.isArray(value)) return value.map(pointAtComponents) as T;
  if (value === null || typeof value !== 'object') return value;
  const entries = Object.entries(value).map(([key, member]) =>
    key === '$ref' && typeof member === 'string' && member.startsWith(LOCAL_DEFINITION)
      ? [key, COMPONENT_SCHEMA + member.slice(LOCAL_DEFINITION.length)]
      : [key, pointAtComponents(member)],
  );
  return Object.fromEntries(entries) as T;
}

/**
 * Converts the zod schemas of one OpenAPI document. A schema named with `.meta({ id })`
 * becomes a component of that name, referenced wherever it is used; the rest stays inline.
 */
export class SchemaComponents {
  private readonly named: Record<string, JsonSchema> = {};

  /** The schema as a client sends it (requests) or reads it (responses: the server never parses them). */
  toJsonSchema(schema: z.ZodType): JsonSchema {
    const generated = z.toJSONSchema(schema, {
      io: 'input',
      unrepresentable: 'any',
      override: ({ zodSchema, jsonSchema }) => {
        keepDefault(zodSchema, jsonSchema);
        keepExamples(zodSchema, jsonSchema);
        tidyBounds(jsonSchema);
      },
    }) as JsonSchema;
    const { $schema: _dialect, $defs, ...root } = generated;
    for (const [id, definition] of Object.entries(($defs ?? {}) as Record<string, JsonSchema>)) this.add(id, pointAtComponents(definition));
    return pointAtComponents(root);
  }

  /** Every named schema met so far, by name. */
  schemas(): Record<string, JsonSchema> {
    return Object.fromEntries(Object.entries(this.named).sort(([a], [b]) => (a < b ? -1 : 1)));
  }

  private add(id: string, definition: JsonSchema): void {
    // Zod names a schema it had to extract (a cycle) `__schema<n>`, which would collide across routes.
    if (id.startsWith('__schema')) throw new Error('A recursive schema needs a name: give it `.meta({ id })`');
    const known = this.named[id];
    if (known !== undefined && !isDeepStrictEqual(known, definition)) throw new Error(`Two different schemas are named "${id}"`);
    this.named[id] = definition;
  }
}
