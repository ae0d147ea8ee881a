import { publicKey } from '@ledger-api/http';
import { z } from 'zod';
import { permissionEntry } from '../groups/schema';

export const userSummaryResource = z
  .object({ publicKey: z.string(), groups: z.array(z.string()), allow: z.array(permissionEntry), deny: z.array(permissionEntry) })
  .meta({
    id: 'UserSummary',
    title: 'User (list form)',
    examples: [
      {
        publicKey: '03547daceb5b88e74aa82c33143abe342961dcd710a4c424c13343c25576699aef',
        groups: ['Administrators'],
        allow: [{ transactionType: 1, transactionTypeGroup: 9000 }],
        deny: [{ transactionType: 0, transactionTypeGroup: 9001 }],
      },
    ],
  });

export const userDetailResource = z
  .object({
    publicKey: z.string(),
    groups: z.array(z.string()),
    permissions: z.array(z.object({ kind: z.number().int().meta({ description: '1 = allow, 0 = deny' }), types: z.array(permissionEntry) })),
  })
  .meta({
    id: 'UserDetail',
    title: 'User (detail form)',
    examples: [
      {
        publicKey: '03547daceb5b88e74aa82c33143abe342961dcd710a4c424c13343c25576699aef',
        groups: ['Administrators'],
        permissions: [
          { kind: 1, types: [{ transactionType: 1, transactionTypeGroup: 9000 }] },
          { kind: 0, types: [{ transactionType: 0, transactionTypeGroup: 9001 }] },
        ],
      },
    ],
  });

export const userParams = z.strictObject({ id: publicKey('Public key of the user') });
