import { z } from 'zod';
import { ApiError } from '@ledger-api/http-core';
import { booleanParam, publicKey, transactionId } from './fields';
import { listQuerySchema, type ListConfig } from './paging';
import { validate } from './validation';

const config = {
  filters: { active: booleanParam().optional() },
  orderable: { name: 'name' },
  defaultOrder: { name: 1 },
  transform: true,
  totalCountIsEstimate: true,
} satisfies ListConfig;
const query = listQuerySchema(config);

function messageOf(schema: z.ZodType, value: unknown): string {
  try {
    validate(schema, value);
  } catch (error) {
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).status).toBe(422);
    return (error as ApiError).message;
  }
  throw new Error('expected a validation error');
}

describe('request validation messages', () => {
  it.each([
    [{ limit: '101' }, '"limit" must be less than or equal to 100'],
    [{ limit: '0' }, '"limit" must be greater than or equal to 1'],
    [{ page: '0' }, '"page" must be a positive number'],
    [{ page: '-3' }, '"page" must be a positive number'],
    [{ page: '1.5' }, '"page" must be an integer'],
    [{ page: 'two' }, '"page" must be a number'],
    [{ page: ['1', '2'] }, '"page" must be a number'],
    [{ offset: '-1' }, '"offset" must be greater than or equal to 0'],
    [{ transform: 'yes' }, '"transform" must be a boolean'],
    [{ active: '1' }, '"active" must be a boolean'],
    [{ foo: 'bar' }, '"foo" is not allowed'],
    [{ orderBy: 'name' }, '"orderBy" with value "name" fails to match the orderBy query parameter (<iteratee>:<direction>) pattern'],
    [{ orderBy: 'name:DESC' }, '"orderBy" with value "name:DESC" fails to match the orderBy query parameter (<iteratee>:<direction>) pattern'],
    [{ orderBy: 'height:asc' }, "Unknown orderBy property 'height'"],
  ])('%j -> %s', (input, message) => {
    expect(messageOf(query, input)).toBe(message);
  });

  it('accepts booleans in any letter case and applies defaults', () => {
    expect(validate(query, { transform: 'FALSE', active: 'True' })).toEqual({ page: 1, limit: 100, transform: false, active: true });
  });

  it('checks hex ids and lower-cases them', () => {
    const params = z.strictObject({ id: transactionId() });
    expect(messageOf(params, { id: 'abc' })).toBe('"id" length must be 64 characters long');
    expect(messageOf(params, { id: 'z'.repeat(64) })).toBe('"id" must only contain hexadecimal characters');
    // A short id with a non-hex character reports the characters first.
    expect(messageOf(params, { id: 'xyz' })).toBe('"id" must only contain hexadecimal characters');
    expect(messageOf(params, { id: `${'a'.repeat(70)}!` })).toBe('"id" must only contain hexadecimal characters');
    expect(validate(params, { id: 'AB'.repeat(32) }).id).toBe('ab'.repeat(32));
    expect(messageOf(z.strictObject({ id: publicKey() }), { id: 'a'.repeat(64) })).toBe('"id" length must be 66 characters long');
  });

  it('names the body "value" and nested members by their dotted path', () => {
    const body = z.strictObject({ expiration: z.strictObject({ blockHeight: z.number().int().min(1) }).optional() });
    expect(messageOf(body, 'text')).toBe('"value" must be of type object');
    expect(messageOf(body, { expiration: { blockHeight: 'x' } })).toBe('"expiration.blockHeight" must be a number');
    expect(messageOf(body, { expiration: { other: 1 } })).toBe('"expiration.blockHeight" is required');
    expect(messageOf(body, { nope: 1 })).toBe('"nope" is not allowed');
  });
});

describe('array items in messages', () => {
  it('names an item by its index in brackets, as Joi does', () => {
    const body = z.strictObject({ ids: z.array(transactionId()).min(1), rows: z.array(z.strictObject({ at: z.number() })).optional() });
    expect(messageOf(body, { ids: ['a'.repeat(64), 'a'.repeat(64), 'b'.repeat(64), 'x'.repeat(64)] })).toBe(
      '"ids[3]" must only contain hexadecimal characters',
    );
    expect(messageOf(body, { ids: ['abc'] })).toBe('"ids[0]" length must be 64 characters long');
    expect(messageOf(body, { ids: ['a'.repeat(64)], rows: [{ at: 1 }, { at: 'x' }] })).toBe('"rows[1].at" must be a number');
    expect(messageOf(body, { ids: ['a'.repeat(64)], rows: [{ at: 1, more: 2 }] })).toBe('"rows[0].more" is not allowed');
  });
});
