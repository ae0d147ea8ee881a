import { errorBody } from './errors';

/**
 * The pieces of an OpenAPI document that the services and the gateway both write:
 * component references and error answers in the body format of docs/behaviour.md section 2.
 */

export type JsonSchema = Record<string, unknown>;

export interface HeaderObject {
  description: string;
  required?: boolean;
  schema: JsonSchema;
  example?: unknown;
}

export interface ErrorResponseSpec {
  description: string;
  /** Header components the answer carries. */
  headers: string[];
  /** Example messages (with the members they add to the body, if any), by a name that says when the answer is given. */
  messages: Record<string, string | { message: string; members: Record<string, unknown> }>;
  /** The body's schema where the answer adds members to the error body; the error body's otherwise. */
  schema?: JsonSchema;
}

export const componentRef = (section: 'schemas' | 'responses' | 'headers', name: string) => ({ $ref: `#/components/${section}/${name}` });

export const headerRefs = (names: string[]) => Object.fromEntries(names.map((name) => [name, componentRef('headers', name)]));

/** An answer in the error body format of docs/behaviour.md section 2. */
export function errorResponse(status: number, { description, headers, messages, schema }: ErrorResponseSpec) {
  const examples = Object.entries(messages).map(([name, example]) => {
    const { message, members } = typeof example === 'string' ? { message: example, members: {} } : example;
    return [name, { value: errorBody(status, message, members) }];
  });
  const body = { schema: schema ?? componentRef('schemas', 'Error'), ...(examples.length > 0 && { examples: Object.fromEntries(examples) }) };
  return { description, headers: headerRefs(headers), content: { 'application/json': body } };
}
