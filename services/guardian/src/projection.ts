import type { Projection, ProjectionContext, Transaction } from '@ledger-api/ledger';
import type { Doc } from '@ledger-api/store';

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

function permissions(entries: unknown): PermissionEntry[] {
  if (!Array.isArray(entries)) return [];
  return entries.map((entry: PermissionEntry) => ({
    transactionType: entry.transactionType,
    transactionTypeGroup: entry.transactionTypeGroup,
  }));
}

async function setUserPermissions(ctx: ProjectionContext, asset: Record<string, any>, sequence: number) {
  const publicKey = String(asset.publicKey).toLowerCase();
  const existing = await ctx.get<UserDoc>(USERS, publicKey);
  ctx.put(USERS, {
    _id: publicKey,
    publicKey,
    groups: Array.isArray(asset.groupNames) ? asset.groupNames.map(String) : [],
    allow: permissions(asset.allow),
    deny: permissions(asset.deny),
    firstSeenHeight: existing?.firstSeenHeight ?? ctx.block.height,
    firstSeenSequence: existing?.firstSeenSequence ?? sequence,
  } satisfies UserDoc);
}

function setGroupPermissions(ctx: ProjectionContext, asset: Record<string, any>) {
  const name = String(asset.name);
  ctx.put(GROUPS, {
    _id: name,
    name,
    nameLower: name.toLowerCase(),
    priority: Number(asset.priority),
    active: Boolean(asset.active),
    default: Boolean(asset.default),
    allow: permissions(asset.allow),
    deny: permissions(asset.deny),
  } satisfies GroupDoc);
}

/** Groups and users are replaced wholesale by their transactions; nothing is deleted but by a revert. */
export const guardianProjection: Projection = {
  area: 'guardian',
  collections: [
    {
      name: GROUPS,
      indexes: [{ key: { name: 1 } }, { key: { nameLower: 1 } }, { key: { priority: 1, name: 1 } }, { key: { active: 1, name: 1 } }, { key: { default: 1, name: 1 } }],
    },
    {
      name: USERS,
      indexes: [{ key: { firstSeenHeight: 1, firstSeenSequence: 1 } }, { key: { publicKey: 1 } }, { key: { groups: 1, firstSeenHeight: 1, firstSeenSequence: 1 } }],
    },
  ],
  async applyTransaction(ctx: ProjectionContext, tx: Transaction, sequence: number) {
    if (tx.typeGroup !== GUARDIAN_TYPE_GROUP || !tx.asset) return;
    if (tx.type === SET_USER_PERMISSIONS && tx.asset.setUserPermissions) {
      await setUserPermissions(ctx, tx.asset.setUserPermissions, sequence);
    } else if (tx.type === SET_GROUP_PERMISSIONS && tx.asset.setGroupPermissions) {
      setGroupPermissions(ctx, tx.asset.setGroupPermissions);
    }
  },
};
