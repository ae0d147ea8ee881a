import { publicKey } from '@ledger-api/http';
import { z } from 'zod';

// Guardian transaction payloads (docs/ledger-events.md section 3); members the ledger may add are ignored.

const permissionEntries = z.array(z.object({ transactionType: z.number().int(), transactionTypeGroup: z.number().int() })).default(() => []);

export const setUserPermissionsTransaction = z.object({
  asset: z.object({
    setUserPermissions: z.object({
      publicKey: publicKey(),
      groupNames: z.array(z.string()).default(() => []),
      allow: permissionEntries,
      deny: permissionEntries,
    }),
  }),
});

export const setGroupPermissionsTransaction = z.object({
  asset: z.object({
    setGroupPermissions: z.object({
      name: z.string(),
      priority: z.number(),
      active: z.boolean(),
      default: z.boolean(),
      allow: permissionEntries,
      deny: permissionEntries,
    }),
  }),
});

export type UserPermissions = z.infer<typeof setUserPermissionsTransaction>['asset']['setUserPermissions'];
export type GroupPermissions = z.infer<typeof setGroupPermissionsTransaction>['asset']['setGroupPermissions'];
