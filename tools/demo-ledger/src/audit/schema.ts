/**
 * The subset of JSON Schema the demo collections use, enough to check that
 * every asset's attributes conform to its collection's schema.
 */
type Schema = Record<string, unknown>;

export function schemaProblems(value: unknown, schema: Schema, path = 'attributes'): string[] {
  const problems: string[] = [];
  if (schema.type !== undefined && !hasType(value, schema.type as string)) return [`${path} is not of type ${String(schema.type)}`];
  if (Array.isArray(schema.enum) && !schema.enum.includes(value)) problems.push(`${path} is not one of the allowed values`);
  if (typeof value === 'number') problems.push(...numberProblems(value, schema, path));
  if (typeof value === 'string') problems.push(...stringProblems(value, schema, path));
  if (Array.isArray(value)) {
    if (typeof schema.maxItems === 'number' && value.length > schema.maxItems) problems.push(`${path} has too many items`);
    const items = schema.items as Schema | undefined;
    if (items) value.forEach((item, i) => problems.push(...schemaProblems(item, items, `${path}[${i}]`)));
  }
  if (schema.type === 'object') problems.push(...objectProblems(value as Record<string, unknown>, schema, path));
  return problems;
}

function hasType(value: unknown, type: string): boolean {
  switch (type) {
    case 'integer':
      return Number.isInteger(value);
    case 'array':
      return Array.isArray(value);
    case 'object':
      return typeof value === 'object' && value !== null && !Array.isArray(value);
    default:
      return typeof value === type;
  }
}

function numberProblems(value: number, schema: Schema, path: string): string[] {
  const tooSmall = typeof schema.minimum === 'number' && value < schema.minimum;
  const tooLarge = typeof schema.maximum === 'number' && value > schema.maximum;
  return tooSmall || tooLarge ? [`${path} is out of range`] : [];
}

function stringProblems(value: string, schema: Schema, path: string): string[] {
  const tooShort = typeof schema.minLength === 'number' && value.length < schema.minLength;
  const tooLong = typeof schema.maxLength === 'number' && value.length > schema.maxLength;
  const mismatch = typeof schema.pattern === 'string' && !new RegExp(schema.pattern).test(value);
  return tooShort || tooLong || mismatch ? [`${path} has the wrong length or form`] : [];
}

function objectProblems(value: Record<string, unknown>, schema: Schema, path: string): string[] {
  const properties = (schema.properties ?? {}) as Record<string, Schema>;
  const problems: string[] = [];
  for (const name of (schema.required ?? []) as string[]) {
    if (!(name in value)) problems.push(`${path}.${name} is required`);
  }
  for (const [name, member] of Object.entries(value)) {
    if (properties[name]) problems.push(...schemaProblems(member, properties[name], `${path}.${name}`));
    else if (schema.additionalProperties === false) problems.push(`${path}.${name} is not allowed`);
  }
  return problems;
}
