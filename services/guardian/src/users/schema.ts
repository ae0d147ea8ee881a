import { publicKey } from '@ledger-api/http';
import { z } from 'zod';
import { permissionEntry } from '../groups/schema';

export const userSummaryResource = z
  .object({ publicKey: z.string(), groups: z.array(z.string()), allow: z.array(permissionEntry), deny: z.array(permissionEntry) })
  .meta({ title: 'User (list form)' });

export const userDetailResource = z
  .object({
    publicKey: z.string(),
    groups: z.array(z.string()),
    permissions: z.array(z.object({ kind: z.number().int().meta({ description: '1 = allow, 0 = deny' }), types: z.array(permissionEntry) })),
  })
  .meta({ title: 'User (detail form)' });

export const userParams = z.strictObject({ id: publicKey('Public key of the user') });
