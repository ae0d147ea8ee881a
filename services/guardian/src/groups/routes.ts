import { recordRoutes, subresourceRoute } from '@ledger-api/http';
import type { Store } from '@ledger-api/store';
import { z } from 'zod';
import { presentUserSummary } from '../users/presenter';
import { userSummaryResource } from '../users/schema';
import { presentGroup } from './presenter';
import { groupsList } from './query-config';
import { groupsRepository } from './repository';
import { groupParams, groupResource } from './schema';

const TAGS = ['Guardian groups'];

export function groupRoutes(store: Store) {
  const repository = groupsRepository(store);
  const { list, byId } = recordRoutes({
    path: '/guardian/groups',
    tags: TAGS,
    list: groupsList,
    item: groupResource,
    params: groupParams,
    repository,
    present: presentGroup,
    operations: {
      list: { operationId: 'listGroups', summary: 'List permission groups' },
      byId: { operationId: 'getGroup', summary: 'Get a permission group by name', notFound: 'Group not found' },
    },
  });
  return [
    list,
    byId,
    subresourceRoute({
      path: '/guardian/groups/:id/users',
      operationId: 'listGroupUsers',
      summary: 'List the users of a permission group',
      description: 'Members in the order they first appeared on the ledger; not paged.',
      tags: TAGS,
      params: groupParams,
      data: z.array(userSummaryResource),
      find: async (name) => (await repository.members(name))?.map(presentUserSummary) ?? null,
      notFound: 'Group not found',
    }),
  ];
}
