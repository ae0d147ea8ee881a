import { HTTP_METHODS, isNode, member, Resolver, type Node, type OpenApiDocument } from './document';
import { schemaChanges, type SchemaComparison } from './schema-changes';

/**
 * The breaking changes from the released API document to the current one, each a line
 * naming the operation, the place and the change, e.g.
 * `GET /api/nft/assets query parameter limit: maximum 100 -> 50`. An approval names the line.
 */
export function breakingChanges(released: OpenApiDocument, current: OpenApiDocument): string[] {
  const context: SchemaComparison = { released: new Resolver(released), current: new Resolver(current), enclosing: new Set() };
  const changes: string[] = [];
  for (const [path, releasedItem] of Object.entries(released.paths)) {
    const currentItem = current.paths[path];
    if (currentItem === undefined) {
      changes.push(`${path}: path removed`);
      continue;
    }
    for (const method of HTTP_METHODS.filter((name) => name in releasedItem)) {
      const operation = `${method.toUpperCase()} ${path}`;
      if (!(method in currentItem)) changes.push(`${operation}: operation removed`);
      else
        changes.push(
          ...operationChanges(context, operation, [releasedItem, member(releasedItem, method)], [currentItem, member(currentItem, method)]),
        );
    }
  }
  return changes;
}

type Operation = [pathItem: Node, operation: Node];

function operationChanges(context: SchemaComparison, operation: string, released: Operation, current: Operation): string[] {
  return [
    ...parameterChanges(context, operation, parametersOf(context.released, released), parametersOf(context.current, current)),
    ...requestBodyChanges(context, operation, member(released[1], 'requestBody'), member(current[1], 'requestBody')),
    ...responseChanges(context, operation, member(released[1], 'responses'), member(current[1], 'responses')),
  ];
}

/** The operation's parameters by `<in> parameter <name>`: the path item's, overridden by the operation's own. */
function parametersOf(resolver: Resolver, [pathItem, operation]: Operation): Map<string, Node> {
  const parameters = new Map<string, Node>();
  for (const listed of [pathItem.parameters, operation.parameters]) {
    for (const entry of Array.isArray(listed) ? listed : []) {
      const { node } = resolver.resolve(entry);
      parameters.set(`${String(node.in)} parameter ${String(node.name)}`, node);
    }
  }
  return parameters;
}

function parameterChanges(context: SchemaComparison, operation: string, released: Map<string, Node>, current: Map<string, Node>): string[] {
  const changes: string[] = [];
  for (const [key, parameter] of released) {
    const now = current.get(key);
    if (now === undefined) changes.push(`${operation} ${key}: removed`);
    else {
      if (parameter.required !== true && now.required === true) changes.push(`${operation} ${key}: now required`);
      changes.push(...schemaChanges(context, parameter.schema, now.schema, 'request', `${operation} ${key}`));
    }
  }
  for (const [key, parameter] of current) {
    if (!released.has(key) && parameter.required === true) changes.push(`${operation} ${key}: new required parameter`);
  }
  return changes;
}

function requestBodyChanges(context: SchemaComparison, operation: string, releasedBody: unknown, currentBody: unknown): string[] {
  const released = context.released.resolve(releasedBody).node;
  const current = context.current.resolve(currentBody).node;
  const changes = released.required !== true && current.required === true ? [`${operation} request body: now required`] : [];
  return [...changes, ...contentChanges(context, `${operation} request body`, member(released, 'content'), member(current, 'content'), 'request')];
}

function responseChanges(context: SchemaComparison, operation: string, released: Node, current: Node): string[] {
  const changes: string[] = [];
  for (const status of Object.keys(released)) {
    const at = `${operation} response ${status}`;
    if (!(status in current)) {
      changes.push(`${at}: removed`);
      continue;
    }
    const before = context.released.resolve(released[status]).node;
    const after = context.current.resolve(current[status]).node;
    changes.push(...headerChanges(context, at, member(before, 'headers'), member(after, 'headers')));
    changes.push(...contentChanges(context, at, member(before, 'content'), member(after, 'content'), 'response'));
  }
  return changes;
}

function headerChanges(context: SchemaComparison, at: string, released: Node, current: Node): string[] {
  const changes: string[] = [];
  for (const [name, header] of Object.entries(released)) {
    if (!(name in current)) {
      changes.push(`${at} header ${name}: removed`);
      continue;
    }
    const before = context.released.resolve(header).node;
    const after = context.current.resolve(current[name]).node;
    changes.push(...schemaChanges(context, before.schema, after.schema, 'response', `${at} header ${name}`));
  }
  return changes;
}

function contentChanges(context: SchemaComparison, at: string, released: Node, current: Node, direction: 'request' | 'response'): string[] {
  const changes: string[] = [];
  for (const mediaType of Object.keys(released)) {
    const [before, after] = [member(released, mediaType), current[mediaType]];
    if (!isNode(after)) changes.push(`${at} ${mediaType}: removed`);
    else changes.push(...schemaChanges(context, before.schema, after.schema, direction, `${at} ${mediaType} $`));
  }
  return changes;
}
