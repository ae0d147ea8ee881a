import { configurationRoute, type PackageInfo } from '@ledger-api/http';
import { GUARDIAN_TYPE_GROUP } from '../projection';

/** The Guardian constants of docs/api.md's Limits table. */
export const GUARDIAN_CONSTANTS = {
  crypto: {
    guardianTypeGroup: GUARDIAN_TYPE_GROUP,
    version: 2,
    guardianGroupName: { minLength: 1, maxLength: 40 },
    guardianGroupPriority: { min: 0, max: 1000 },
  },
  transactions: {
    maxDefinedGroupsPerUser: 20,
    transactionsAllowedByDefault: true,
    feeType: 0,
  },
};

export const configurationRoutes = (pkg: PackageInfo) => [
  configurationRoute(
    { path: '/guardian/configurations', operationId: 'getGuardianConfiguration', tag: 'Guardian configuration' },
    pkg,
    GUARDIAN_CONSTANTS,
  ),
];
