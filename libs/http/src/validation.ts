import { z } from 'zod';
import { ApiError } from '@ledger-api/http-core';

/**
 * Zod validates every request; clients read Joi-style messages
 * (`"limit" must be less than or equal to 100`), so issues are rewritten here.
 */
type Issue = z.core.$ZodIssue;

const TYPE_PHRASES: Record<string, string> = {
  number: 'must be a number',
  int: 'must be an integer',
  boolean: 'must be a boolean',
  string: 'must be a string',
  object: 'must be of type object',
  array: 'must be an array',
};

/** Joi's labels: member names joined by dots, array items by their index in brackets (`ids[3]`, `a.b[0].c`). */
function label(path: PropertyKey[]): string {
  if (path.length === 0) return 'value';
  return path.map((key, at) => (typeof key === 'number' ? `[${key}]` : at === 0 ? String(key) : `.${String(key)}`)).join('');
}

function sizePhrase(issue: Issue & { code: 'too_small' | 'too_big' }): string {
  const bound = Number('minimum' in issue ? issue.minimum : issue.maximum);
  const small = issue.code === 'too_small';
  if (issue.origin === 'string') {
    if (issue.exact) return `length must be ${bound} characters long`;
    return small ? `length must be at least ${bound} characters long` : `length must be less than or equal to ${bound} characters long`;
  }
  if (issue.origin === 'array') return small ? `must contain at least ${bound} items` : `must contain less than or equal to ${bound} items`;
  if (small && !issue.inclusive && bound === 0) return 'must be a positive number';
  if (small) return issue.inclusive ? `must be greater than or equal to ${bound}` : `must be greater than ${bound}`;
  return issue.inclusive ? `must be less than or equal to ${bound}` : `must be less than ${bound}`;
}

export function formatIssue(issue: Issue): string {
  const name = `"${label(issue.path)}"`;
  switch (issue.code) {
    case 'unrecognized_keys':
      return `"${label([...issue.path, issue.keys[0]])}" is not allowed`;
    case 'invalid_type':
      if (issue.input === undefined) return `${name} is required`;
      return `${name} ${TYPE_PHRASES[issue.expected] ?? `must be a ${issue.expected}`}`;
    case 'too_small':
    case 'too_big':
      return `${name} ${sizePhrase(issue)}`;
    case 'invalid_value':
      return `${name} must be one of [${issue.values.map(String).join(', ')}]`;
    case 'custom':
      // Custom checks write the whole message themselves (e.g. the orderBy ones).
      return issue.message;
    default:
      return `${name} ${issue.message}`;
  }
}

/** Validates one part of a request, throwing the first problem as a 422. */
export function validate<S extends z.ZodType>(schema: S, value: unknown): z.output<S> {
  const result = schema.safeParse(value, { reportInput: true });
  if (result.success) return result.data;
  throw new ApiError(422, formatIssue(result.error.issues[0]));
}
