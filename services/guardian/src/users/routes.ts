import { recordRoutes, subresourceRoute } from '@ledger-api/http';
import type { Store } from '@ledger-api/store';
import { z } from 'zod';
import { presentGroup } from '../groups/presenter';
import { groupResource } from '../groups/schema';
import { presentUserDetail, presentUserSummary } from './presenter';
import { usersList } from './query-config';
import { usersRepository } from './repository';
import { userDetailResource, userParams, userSummaryResource } from './schema';

const TAGS = ['Guardian users'];

export function userRoutes(store: Store) {
  const repository = usersRepository(store);
  const { list, byId } = recordRoutes({
    path: '/guardian/users',
    tags: TAGS,
    list: usersList,
    item: userSummaryResource,
    detail: userDetailResource,
    params: userParams,
    repository,
    present: presentUserSummary,
    presentDetail: presentUserDetail,
    operations: {
      list: { operationId: 'listUsers', summary: 'List users with their groups and permissions' },
      byId: { operationId: 'getUser', summary: 'Get a user by public key', notFound: 'User not found' },
    },
  });
  return [
    list,
    byId,
    subresourceRoute({
      path: '/guardian/users/:id/groups',
      operationId: 'listUserGroups',
      summary: "List a user's groups",
      description: "The user's groups in the user's own order; names without a group are skipped. Not paged.",
      tags: TAGS,
      params: userParams,
      data: z.array(groupResource),
      find: async (key) => (await repository.groupsOf(key))?.map(presentGroup) ?? null,
      notFound: 'User not found',
    }),
  ];
}
