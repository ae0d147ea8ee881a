import { defineRoute, listQuerySchema, notFound, pagedEnvelope, pagedResponse } from '@ledger-api/http';
import type { Store } from '@ledger-api/store';
import { z } from 'zod';
import { presentUserSummary } from '../users/presenter';
import { userSummaryResource } from '../users/schema';
import { presentGroup } from './presenter';
import { groupsList } from './query-config';
import { groupsRepository } from './repository';
import { groupParams, groupResource } from './schema';

export function groupRoutes(store: Store) {
  const repository = groupsRepository(store);
  return [
    defineRoute({
      method: 'get',
      path: '/guardian/groups',
      operationId: 'listGroups',
      summary: 'List permission groups',
      tags: ['Guardian groups'],
      query: listQuerySchema(groupsList),
      response: pagedResponse(groupResource),
      async handler({ query, location }) {
        const page = await repository.list(query);
        return pagedEnvelope(location, groupsList, query, page, page.items.map(presentGroup));
      },
    }),
    defineRoute({
      method: 'get',
      path: '/guardian/groups/:id',
      operationId: 'getGroup',
      summary: 'Get a permission group by name',
      tags: ['Guardian groups'],
      params: groupParams,
      response: z.object({ data: groupResource }),
      errors: [404],
      async handler({ params }) {
        const group = await repository.findByName(params.id);
        if (!group) throw notFound('Group not found');
        return { data: presentGroup(group) };
      },
    }),
    defineRoute({
      method: 'get',
      path: '/guardian/groups/:id/users',
      operationId: 'listGroupUsers',
      summary: 'List the users of a permission group',
      description: 'Members in the order they first appeared on the ledger; not paged.',
      tags: ['Guardian groups'],
      params: groupParams,
      response: z.object({ data: z.array(userSummaryResource) }),
      errors: [404],
      async handler({ params }) {
        const members = await repository.members(params.id);
        if (!members) throw notFound('Group not found');
        return { data: members.map(presentUserSummary) };
      },
    }),
  ];
}
