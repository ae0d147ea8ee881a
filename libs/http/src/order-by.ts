import type { FieldOrder, SortDirection } from '@ledger-api/store';
import { z } from 'zod';

const ORDER_BY_PATTERN = /^([^:]+):(asc|desc)$/;

/**
 * `orderBy=<field>:<direction>` restricted to the route's orderable fields (API name -> stored field),
 * validated into the stored field the API name stands for, so the store sorts on it as it is.
 */
export function orderByParam(orderable: Readonly<Record<string, string>>) {
  const names = Object.keys(orderable);
  return z
    .string()
    .transform((value, ctx): FieldOrder => {
      const match = ORDER_BY_PATTERN.exec(value);
      if (!match) {
        ctx.addIssue({
          code: 'custom',
          message: `"orderBy" with value "${value}" fails to match the orderBy query parameter (<iteratee>:<direction>) pattern`,
        });
        return z.NEVER;
      }
      const [, field, direction] = match;
      if (!Object.hasOwn(orderable, field)) {
        ctx.addIssue({ code: 'custom', message: `Unknown orderBy property '${field}'` });
        return z.NEVER;
      }
      return { field: orderable[field], direction: direction as SortDirection };
    })
    .meta({
      type: 'string',
      pattern: '^[^:]+:(asc|desc)$',
      description: `Ordering as <field>:<asc|desc>. Orderable fields: ${names.join(', ')}.`,
    });
}
