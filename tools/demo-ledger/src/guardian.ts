import { NFT_BASE_TYPE_GROUP, NFT_EXCHANGE_TYPE_GROUP } from '@ledger-api/nft-read-model';
import { CORE_TYPE_GROUP, GUARDIAN_TYPE_GROUP, heightAt } from './context';
import type { DemoContext, ScheduledEvent } from './context';
import type { Random } from './random';
import type { WalletPool } from './wallets';

const SET_USER_PERMISSIONS = 0;
const SET_GROUP_PERMISSIONS = 1;

interface Permission {
  transactionType: number;
  transactionTypeGroup: number;
}

const KNOWN_TYPES: Permission[] = [
  ...[0, 1, 2, 3, 4, 5, 6, 8].map((type) => ({ transactionType: type, transactionTypeGroup: CORE_TYPE_GROUP })),
  ...[0, 1, 2, 3].map((type) => ({ transactionType: type, transactionTypeGroup: NFT_BASE_TYPE_GROUP })),
  ...[0, 1, 2, 3, 4].map((type) => ({ transactionType: type, transactionTypeGroup: NFT_EXCHANGE_TYPE_GROUP })),
  ...[0, 1].map((type) => ({ transactionType: type, transactionTypeGroup: GUARDIAN_TYPE_GROUP })),
];

/** Group names, with the progress at which each is created; some exercise literal matching of `.`, `(`, `+`. */
const GROUPS: Array<[name: string, createdAt: number]> = [
  ['Administrators', 0],
  ['Validators', 0],
  ['NFT Studios', 0],
  ['Collectors', 0],
  ['Market Makers', 0],
  ['Support Team', 0.01],
  ['Read Only', 0.01],
  ['Beta Testers (v2.0)', 0.02],
  ['Suspended', 0.3],
  ['ops+audit.team', 0.55],
];
/** Names users refer to that no group ever takes. */
const GHOST_GROUPS = ['Legacy Admins', 'Founders', 'Early Adopters'];

const USER_COUNT = 40;
const GROUP_UPDATES = 6;
const USER_UPDATES = 12;

type Emit = (height: number, type: number, asset: Record<string, unknown>) => void;

/** The Guardian history: groups and users created early, some changed later, all by the administrator. */
export function scheduleGuardian(random: Random, wallets: WalletPool, blockCount: number): ScheduledEvent[] {
  const events: ScheduledEvent[] = [];
  const admin = wallets.guardianAdmin.index;
  const emit: Emit = (height, type, asset) =>
    events.push({ height, run: (ctx: DemoContext) => ctx.transaction({ sender: admin, typeGroup: GUARDIAN_TYPE_GROUP, type, asset }) });
  scheduleGroups(random, blockCount, emit);
  scheduleUsers(random, wallets, blockCount, emit);
  return events;
}

function scheduleGroups(random: Random, blockCount: number, emit: Emit): void {
  for (const [name, createdAt] of GROUPS) {
    emit(heightAt(createdAt, blockCount), SET_GROUP_PERMISSIONS, { setGroupPermissions: groupPermissions(random, name) });
  }
  for (let update = 0; update < GROUP_UPDATES; update++) {
    const [name, createdAt] = random.pick(GROUPS);
    const height = heightAt(createdAt + 0.01 + random.next() * (0.95 - createdAt), blockCount);
    emit(height, SET_GROUP_PERMISSIONS, { setGroupPermissions: groupPermissions(random, name) });
  }
}

function scheduleUsers(random: Random, wallets: WalletPool, blockCount: number, emit: Emit): void {
  const users = random.sample([wallets.guardianAdmin, ...wallets.traders], USER_COUNT);
  const createdAt = users.map(() => random.next() * 0.6).sort((a, b) => a - b);
  users.forEach((user, i) => {
    emit(heightAt(createdAt[i], blockCount), SET_USER_PERMISSIONS, { setUserPermissions: userPermissions(random, user.publicKey) });
  });
  for (let update = 0; update < USER_UPDATES; update++) {
    const i = random.int(0, USER_COUNT - 1);
    const height = heightAt(createdAt[i] + 0.01 + random.next() * (0.9 - createdAt[i]), blockCount);
    emit(height, SET_USER_PERMISSIONS, { setUserPermissions: userPermissions(random, users[i].publicKey) });
  }
}

function groupPermissions(random: Random, name: string): Record<string, unknown> {
  return {
    name,
    priority: random.chance(0.15) ? random.pick([0, 1000]) : random.int(1, 999),
    active: random.chance(0.8),
    default: random.chance(0.2),
    ...permissionLists(random, 0.7, 0.4),
  };
}

function userPermissions(random: Random, publicKey: string): Record<string, unknown> {
  const groups = random.sample(GROUPS, random.int(0, 3)).map(([name]) => name);
  if (random.chance(0.15)) groups.push(random.pick(GHOST_GROUPS));
  return {
    publicKey,
    ...(groups.length > 0 && { groupNames: groups }),
    ...permissionLists(random, 0.3, 0.2),
  };
}

/** Optional allow and deny lists that never name the same type twice. */
function permissionLists(random: Random, allowChance: number, denyChance: number): { allow?: Permission[]; deny?: Permission[] } {
  const types = random.shuffle(KNOWN_TYPES);
  const allowCount = random.chance(allowChance) ? random.int(1, 5) : 0;
  const denyCount = random.chance(denyChance) ? random.int(1, 3) : 0;
  return {
    ...(allowCount > 0 && { allow: types.slice(0, allowCount) }),
    ...(denyCount > 0 && { deny: types.slice(allowCount, allowCount + denyCount) }),
  };
}
