import { booleanParam, integerParam, type ListConfig } from '@ledger-api/http';
import { z } from 'zod';

/** GET /guardian/groups: filters, orderable fields and default order, in one place. */
export const groupsList = {
  filters: {
    name: z.string().optional().meta({ description: 'Group name; `%` matches any run of characters; letter case is ignored' }),
    priority: integerParam().optional(),
    active: booleanParam().optional(),
    default: booleanParam().optional(),
  },
  orderable: { name: 'name', priority: 'priority', active: 'active', default: 'default' },
  defaultOrder: { name: 1 },
  transform: false,
  totalCountIsEstimate: false,
} satisfies ListConfig;
