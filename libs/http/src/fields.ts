import { hexText } from '@ledger-api/config';
import { z } from 'zod';

/**
 * Field builders for path and query values, which arrive as strings. Each one
 * converts only well-formed text and leaves anything else for zod to reject, and
 * carries the OpenAPI description of the value it accepts.
 */
const NUMBER_TEXT = /^[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?$/;

const toNumber = (value: unknown) => (typeof value === 'string' && NUMBER_TEXT.test(value.trim()) ? Number(value) : value);
const toBoolean = (value: unknown) => (typeof value === 'string' && /^(true|false)$/i.test(value) ? value.toLowerCase() === 'true' : value);

export interface IntegerBounds {
  min?: number;
  max?: number;
  /** Joi's `positive()`: 0 and below read "must be a positive number". */
  positive?: boolean;
}

export function integerParam({ min, max, positive }: IntegerBounds = {}) {
  let schema = z.number().int();
  if (positive) schema = schema.positive();
  if (min !== undefined) schema = schema.min(min);
  if (max !== undefined) schema = schema.max(max);
  const minimum = positive ? 1 : min;
  return z
    .preprocess(toNumber, schema)
    .meta({ type: 'integer', ...(minimum !== undefined && { minimum }), ...(max !== undefined && { maximum: max }) });
}

export function booleanParam(description?: string) {
  return z.preprocess(toBoolean, z.boolean()).meta({ type: 'boolean', description });
}

/** A transaction id or public key: fixed-length hex in any case, used lower-cased. */
export function hexParam(length: number, description?: string) {
  return hexText(length).meta({ type: 'string', minLength: length, maxLength: length, pattern: `^[0-9a-fA-F]{${length}}$`, description });
}

export const transactionId = (description = 'Transaction id (64 hex characters)') => hexParam(64, description);
export const publicKey = (description = 'Public key (66 hex characters)') => hexParam(66, description);

/** Path of a resource derived from one transaction: its 64-hex id, looked up lower-cased. */
export const transactionIdParams = z.strictObject({ id: transactionId() });
