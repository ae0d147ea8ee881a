import type { ListConfig } from '@ledger-api/http';
import { z } from 'zod';

/** GET /guardian/users: no orderBy; users come in the order they first appeared on the ledger. */
export const usersList = {
  filters: {
    publicKey: z.string().optional().meta({ description: 'Public key; `%` matches any run of characters; compared lower-cased' }),
  },
  orderable: {},
  defaultOrder: { firstSeenHeight: 1, firstSeenSequence: 1 },
  transform: false,
  totalCountIsEstimate: false,
} satisfies ListConfig;
