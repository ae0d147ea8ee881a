import { findPage, likeFilter, type Filter, type PageRequest, type Store } from '@ledger-api/store';
import { GROUPS, USERS, type GroupDoc, type UserDoc } from '../projection';
import { usersList } from './query-config';

export interface UsersQuery extends PageRequest {
  publicKey?: string;
}

export function usersRepository(store: Store) {
  const users = store.collection<UserDoc>(USERS);
  const groups = store.collection<GroupDoc>(GROUPS);
  return {
    async list(query: UsersQuery) {
      const filter: Filter = query.publicKey === undefined ? {} : { publicKey: likeFilter(query.publicKey.toLowerCase()) };
      return findPage(users, filter, query, usersList);
    },
    /** A user by public key, the user's id. */
    findById: (key: string) => users.findById(key),
    /** The user's groups in the user's own order, skipping names that have no group; null for an unknown user. */
    async groupsOf(key: string) {
      const user = await users.findById(key);
      if (!user) return null;
      const found = await groups.find({ _id: { $in: user.groups } });
      const byName = new Map(found.map((group) => [group.name, group]));
      return user.groups.flatMap((name) => byName.get(name) ?? []);
    },
  };
}
