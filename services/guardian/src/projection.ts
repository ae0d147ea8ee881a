import { parseTransaction, type Projection, type ProjectionContext, type Transaction } from '@ledger-api/ledger';
import type { Doc } from '@ledger-api/store';
import { setGroupPermissionsTransaction, setUserPermissionsTransaction, type GroupPermissions, type UserPermissions } from './payloads';

export const GUARDIAN_TYPE_GROUP = 9002;
const SET_USER_PERMISSIONS = 0;
const SET_GROUP_PERMISSIONS = 1;

export const GROUPS = 'groups';
export const USERS = 'users';

export interface PermissionEntry {
  transactionType: number;
  transactionTypeGroup: number;
}

export interface GroupDoc extends Doc {
  name: string;
  /** Lower-cased name: group name filters ignore letter case. */
  nameLower: string;
  priority: number;
  active: boolean;
  default: boolean;
  allow: PermissionEntry[];
  deny: PermissionEntry[];
}

export interface UserDoc extends Doc {
  publicKey: string;
  groups: string[];
  allow: PermissionEntry[];
  deny: PermissionEntry[];
  /** Where the user first appeared on the ledger: the default order of user lists. */
  firstSeenHeight: number;
  firstSeenSequence: number;
}

async function setUserPermissions(ctx: ProjectionContext, user: UserPermissions, sequence: number) {
  const { publicKey } = user;
  const existing = await ctx.get<UserDoc>(USERS, publicKey);
  ctx.put(USERS, {
    _id: publicKey,
    publicKey,
    groups: user.groupNames,
    allow: user.allow,
    deny: user.deny,
    firstSeenHeight: existing?.firstSeenHeight ?? ctx.block.height,
    firstSeenSequence: existing?.firstSeenSequence ?? sequence,
  } satisfies UserDoc);
}

function setGroupPermissions(ctx: ProjectionContext, group: GroupPermissions) {
  const { name, priority, active, allow, deny } = group;
  ctx.put(GROUPS, { _id: name, name, nameLower: name.toLowerCase(), priority, active, default: group.default, allow, deny } satisfies GroupDoc);
}

/** Groups and users are replaced wholesale by their transactions; nothing is deleted but by a revert. */
export const guardianProjection: Projection = {
  area: 'guardian',
  collections: [
    {
      name: GROUPS,
      // Ties fall back to the name ascending whichever way a field is ordered,
      // so each orderable field needs an index per direction.
      indexes: [
        { key: { name: 1 } },
        { key: { nameLower: 1, name: 1 } },
        { key: { priority: 1, name: 1 } },
        { key: { priority: -1, name: 1 } },
        { key: { active: 1, name: 1 } },
        { key: { active: -1, name: 1 } },
        { key: { default: 1, name: 1 } },
        { key: { default: -1, name: 1 } },
      ],
    },
    {
      name: USERS,
      indexes: [
        { key: { firstSeenHeight: 1, firstSeenSequence: 1 } },
        { key: { publicKey: 1, firstSeenHeight: 1, firstSeenSequence: 1 } },
        { key: { groups: 1, firstSeenHeight: 1, firstSeenSequence: 1 } },
      ],
    },
  ],
  projects: (tx) => tx.typeGroup === GUARDIAN_TYPE_GROUP && (tx.type === SET_USER_PERMISSIONS || tx.type === SET_GROUP_PERMISSIONS),
  async applyTransaction(ctx: ProjectionContext, tx: Transaction, sequence: number) {
    if (tx.typeGroup !== GUARDIAN_TYPE_GROUP) return;
    if (tx.type === SET_USER_PERMISSIONS) {
      const { asset } = parseTransaction(setUserPermissionsTransaction, ctx.block, tx, sequence);
      await setUserPermissions(ctx, asset.setUserPermissions, sequence);
    } else if (tx.type === SET_GROUP_PERMISSIONS) {
      const { asset } = parseTransaction(setGroupPermissionsTransaction, ctx.block, tx, sequence);
      setGroupPermissions(ctx, asset.setGroupPermissions);
    }
  },
};
