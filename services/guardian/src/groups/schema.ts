import { z } from 'zod';

export const permissionEntry = z
  .object({ transactionType: z.number().int(), transactionTypeGroup: z.number().int() })
  .meta({ id: 'PermissionEntry', examples: [{ transactionType: 1, transactionTypeGroup: 9000 }] });

export const groupResource = z
  .object({
    name: z.string(),
    priority: z.number().int(),
    active: z.boolean(),
    default: z.boolean(),
    allow: z.array(permissionEntry),
    deny: z.array(permissionEntry),
  })
  .meta({
    id: 'Group',
    examples: [
      {
        name: 'Administrators',
        priority: 3,
        active: true,
        default: false,
        allow: [
          { transactionType: 1, transactionTypeGroup: 9000 },
          { transactionType: 3, transactionTypeGroup: 9001 },
        ],
        deny: [],
      },
    ],
  });

/** A group id is its name: any URL-decoded string, matched exactly. */
export const groupParams = z.strictObject({ id: z.string().min(1).meta({ description: 'Group name' }) });
