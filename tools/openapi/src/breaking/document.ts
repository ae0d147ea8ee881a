import { z } from 'zod';

/** A JSON object of an OpenAPI document: a schema, a parameter, a response... */
export type Node = Record<string, unknown>;

const nodeSchema = z.record(z.string(), z.unknown());

/** What the comparison reads of a document; the rest may be anything. */
export const openApiDocumentSchema = z.looseObject({
  openapi: z.string(),
  paths: z.record(z.string(), nodeSchema).default({}),
  components: nodeSchema.optional(),
});

export type OpenApiDocument = z.infer<typeof openApiDocumentSchema>;

export const HTTP_METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'] as const;

export const isNode = (value: unknown): value is Node => typeof value === 'object' && value !== null && !Array.isArray(value);

/** The node's member, when it is an object; an empty one otherwise. */
export const member = (node: Node, key: string): Node => {
  const value = node[key];
  return isNode(value) ? value : {};
};

/** Follows the document's local `$ref`s (`#/components/...`); a node without one is its own target. */
export class Resolver {
  constructor(private readonly document: OpenApiDocument) {}

  /** The node a reference chain ends at, and the last reference followed (to recognise a node seen before). */
  resolve(node: unknown): { node: Node; ref?: string } {
    let current = isNode(node) ? node : {};
    let ref: string | undefined;
    for (let hops = 0; typeof current.$ref === 'string' && hops < 32; hops += 1) {
      ref = current.$ref;
      current = this.target(ref);
    }
    return { node: current, ref };
  }

  private target(ref: string): Node {
    if (!ref.startsWith('#/')) throw new Error(`only references inside the document are compared: ${ref}`);
    let node: unknown = this.document;
    for (const segment of ref.slice(2).split('/')) {
      node = isNode(node) ? node[segment.replaceAll('~1', '/').replaceAll('~0', '~')] : undefined;
    }
    if (!isNode(node)) throw new Error(`${ref} points at nothing in the document`);
    return node;
  }
}
