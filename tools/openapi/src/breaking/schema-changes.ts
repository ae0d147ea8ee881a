import { isNode, member, type Node, type Resolver } from './document';

/**
 * Which side of the API a schema describes. What a client sends (`request`) breaks when the
 * new schema refuses a value the old one accepted (narrowed); what it receives (`response`)
 * breaks when the new schema allows a value the old one ruled out (widened), or a field it
 * could count on goes.
 */
export type Direction = 'request' | 'response';

export interface SchemaComparison {
  released: Resolver;
  current: Resolver;
  /** The pairs of references being compared further up: a recursive schema is compared once. */
  enclosing: Set<string>;
}

const LOWER_BOUNDS = ['minimum', 'exclusiveMinimum', 'minLength', 'minItems', 'minProperties'];
const UPPER_BOUNDS = ['maximum', 'exclusiveMaximum', 'maxLength', 'maxItems', 'maxProperties'];
const EXACT_KEYWORDS = ['pattern', 'format'];

const shown = (value: unknown) => JSON.stringify(value);

/** The schema's types; undefined where it names none (any type). An integer is a number too. */
function typesOf(schema: Node): string[] | undefined {
  if (typeof schema.type === 'string') return [schema.type];
  return Array.isArray(schema.type) ? schema.type.map(String) : undefined;
}

function typeIsCovered(type: string, by: string[]): boolean {
  return by.includes(type) || (type === 'integer' && by.includes('number'));
}

/** Types the `wider` schema takes that the `narrower` one does not; every type when it names none. */
function extraTypes(narrower: string[] | undefined, wider: string[] | undefined): string[] {
  if (wider === undefined) return narrower === undefined ? [] : ['any type'];
  if (narrower === undefined) return [];
  return wider.filter((type) => !typeIsCovered(type, narrower));
}

function enumOf(schema: Node): unknown[] | undefined {
  if ('const' in schema) return [schema.const];
  return Array.isArray(schema.enum) ? schema.enum : undefined;
}

function enumChanges(released: Node, current: Node, direction: Direction): string[] {
  const [before, after] = [enumOf(released), enumOf(current)];
  const has = (values: unknown[], value: unknown) => values.some((other) => shown(other) === shown(value));
  if (direction === 'request') {
    if (after === undefined) return [];
    if (before === undefined) return [`values limited to ${shown(after)}`];
    return before.filter((value) => !has(after, value)).map((value) => `enum value ${shown(value)} removed`);
  }
  if (before === undefined) return [];
  if (after === undefined) return ['enum removed: any value may come'];
  return after.filter((value) => !has(before, value)).map((value) => `enum value ${shown(value)} added`);
}

/** A bound that refuses more on the request side, or allows more on the response side. */
function boundChanges(released: Node, current: Node, direction: Direction): string[] {
  const changes: string[] = [];
  for (const [keywords, tighter] of [
    [LOWER_BOUNDS, (before: number, after: number) => after > before],
    [UPPER_BOUNDS, (before: number, after: number) => after < before],
  ] as const) {
    for (const keyword of keywords) {
      const [before, after] = [released[keyword], current[keyword]];
      if (before === after) continue;
      const narrowed = before === undefined || (after !== undefined && tighter(Number(before), Number(after)));
      if (narrowed === (direction === 'request')) changes.push(`${keyword} ${shown(before ?? null)} -> ${shown(after ?? null)}`);
    }
  }
  for (const keyword of EXACT_KEYWORDS) {
    const [before, after] = [released[keyword], current[keyword]];
    const breaks = direction === 'request' ? after !== undefined : before !== undefined;
    if (before !== after && breaks) changes.push(`${keyword} ${shown(before ?? null)} -> ${shown(after ?? null)}`);
  }
  return changes;
}

function keywordChanges(released: Node, current: Node, direction: Direction): string[] {
  const [before, after] = [typesOf(released), typesOf(current)];
  const types = direction === 'request' ? extraTypes(after, before) : extraTypes(before, after);
  const typeChange = types.length ? [`type ${shown(released.type ?? 'any')} -> ${shown(current.type ?? 'any')}`] : [];
  return [...typeChange, ...enumChanges(released, current, direction), ...boundChanges(released, current, direction)];
}

const requiredOf = (schema: Node) => new Set(Array.isArray(schema.required) ? schema.required.map(String) : []);

function propertyChanges(context: SchemaComparison, released: Node, current: Node, direction: Direction, at: string): string[] {
  const [before, after] = [member(released, 'properties'), member(current, 'properties')];
  const [requiredBefore, requiredAfter] = [requiredOf(released), requiredOf(current)];
  const changes: string[] = [];
  for (const name of Object.keys(before)) {
    if (!(name in after)) {
      // A client may no longer send it where unknown members are refused; a reader loses it always.
      if (direction === 'response' || current.additionalProperties === false) changes.push(`${at}.${name}: removed`);
      continue;
    }
    if (direction === 'response' && requiredBefore.has(name) && !requiredAfter.has(name)) changes.push(`${at}.${name}: no longer always present`);
    changes.push(...schemaChanges(context, before[name], after[name], direction, `${at}.${name}`));
  }
  if (direction === 'request') {
    for (const name of requiredAfter) if (!requiredBefore.has(name)) changes.push(`${at}.${name}: now required`);
  }
  return changes;
}

function containerChanges(context: SchemaComparison, released: Node, current: Node, direction: Direction, at: string): string[] {
  const changes = propertyChanges(context, released, current, direction, at);
  if ('items' in released && 'items' in current) changes.push(...schemaChanges(context, released.items, current.items, direction, `${at}[]`));
  const [before, after] = [released.additionalProperties, current.additionalProperties];
  if (direction === 'request' && before !== false && after === false) changes.push(`${at}: members beside the listed ones refused`);
  if (isNode(before) && isNode(after)) changes.push(...schemaChanges(context, before, after, direction, `${at}{}`));
  return changes;
}

/** The schema's alternatives and the keyword that lists them; a schema that is no union is its only one. */
function alternativesOf(schema: Node): { keyword: string; alternatives: unknown[] } {
  for (const keyword of ['anyOf', 'oneOf']) {
    const alternatives = schema[keyword];
    if (Array.isArray(alternatives)) return { keyword, alternatives };
  }
  return { keyword: 'anyOf', alternatives: [schema] };
}

/**
 * The alternatives of a union, with those of a union among them in its place: a union of
 * unions (a named one wrapped with another alternative) is the union of all their alternatives.
 */
function flatAlternativesOf(resolver: Resolver, schema: Node, within = new Set<string>()): { keyword: string; alternatives: unknown[] } {
  const { keyword, alternatives } = alternativesOf(schema);
  const flat = alternatives.flatMap((alternative) => {
    const { node, ref } = resolver.resolve(alternative);
    const nested = alternativesOf(node).alternatives.length > 1 && !(ref !== undefined && within.has(ref));
    return nested ? flatAlternativesOf(resolver, node, ref === undefined ? within : new Set([...within, ref])).alternatives : [alternative];
  });
  return { keyword, alternatives: flat };
}

/**
 * Unions: on the request side every released alternative must still be accepted by one
 * current alternative; on the response side every current one must be one a client knew.
 * An alternative with no match reports its changes against the one at its own position.
 */
function unionChanges(context: SchemaComparison, released: Node, current: Node, direction: Direction, at: string): string[] {
  const [before, after] = [flatAlternativesOf(context.released, released), flatAlternativesOf(context.current, current)];
  const [kept, candidates] = direction === 'request' ? [before, after.alternatives] : [after, before.alternatives];
  const changes: string[] = [];
  kept.alternatives.forEach((alternative, position) => {
    const where = `${at}.${kept.keyword}[${position}]`;
    const compare = (candidate: unknown) =>
      direction === 'request'
        ? schemaChanges(context, alternative, candidate, direction, where)
        : schemaChanges(context, candidate, alternative, direction, where);
    if (candidates.some((candidate) => compare(candidate).length === 0)) return;
    changes.push(...compare(candidates[Math.min(position, candidates.length - 1)]));
  });
  return changes;
}

/** The breaking changes from the released schema to the current one, each named by where it is. */
export function schemaChanges(
  context: SchemaComparison,
  releasedSchema: unknown,
  currentSchema: unknown,
  direction: Direction,
  at: string,
): string[] {
  const released = context.released.resolve(releasedSchema);
  const current = context.current.resolve(currentSchema);
  const pair = released.ref && current.ref ? `${direction} ${released.ref} ${current.ref}` : undefined;
  if (pair !== undefined) {
    if (context.enclosing.has(pair)) return [];
    context.enclosing.add(pair);
  }
  try {
    if (alternativesOf(released.node).alternatives.length > 1 || alternativesOf(current.node).alternatives.length > 1) {
      return unionChanges(context, released.node, current.node, direction, at);
    }
    const keywords = keywordChanges(released.node, current.node, direction).map((change) => `${at}: ${change}`);
    return [...keywords, ...containerChanges(context, released.node, current.node, direction, at)];
  } finally {
    if (pair !== undefined) context.enclosing.delete(pair);
  }
}
