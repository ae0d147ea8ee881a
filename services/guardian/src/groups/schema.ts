import { z } from 'zod';

export const permissionEntry = z.object({ transactionType: z.number().int(), transactionTypeGroup: z.number().int() });

export const groupResource = z
  .object({
    name: z.string(),
    priority: z.number().int(),
    active: z.boolean(),
    default: z.boolean(),
    allow: z.array(permissionEntry),
    deny: z.array(permissionEntry),
  })
  .meta({ title: 'Group' });

/** A group id is its name: any URL-decoded string, matched exactly. */
export const groupParams = z.strictObject({ id: z.string().min(1).meta({ description: 'Group name' }) });
