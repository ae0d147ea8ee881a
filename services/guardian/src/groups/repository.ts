import { findPage, likeFilter, type Filter, type PageRequest, type Store } from '@ledger-api/store';
import { GROUPS, USERS, type GroupDoc, type UserDoc } from '../projection';
import { groupsList } from './query-config';

export interface GroupsQuery extends PageRequest {
  name?: string;
  priority?: number;
  active?: boolean;
  default?: boolean;
}

function groupsFilter(query: GroupsQuery): Filter {
  const filter: Filter = {};
  if (query.name !== undefined) filter.nameLower = likeFilter(query.name.toLowerCase());
  if (query.priority !== undefined) filter.priority = { $eq: query.priority };
  if (query.active !== undefined) filter.active = { $eq: query.active };
  if (query.default !== undefined) filter.default = { $eq: query.default };
  return filter;
}

export function groupsRepository(store: Store) {
  const groups = store.collection<GroupDoc>(GROUPS);
  const users = store.collection<UserDoc>(USERS);
  return {
    async list(query: GroupsQuery) {
      const filter = groupsFilter(query);
      return findPage(groups, filter, query, groupsList);
    },
    /** A group by name, the group's id. */
    findById: (name: string) => groups.findById(name),
    /** Members of a group in the order they first appeared on the ledger; null when there is no such group. */
    async members(name: string) {
      if (!(await groups.findById(name))) return null;
      return users.find({ groups: { $eq: name } }, { sort: { firstSeenHeight: 1, firstSeenSequence: 1 } });
    },
  };
}
