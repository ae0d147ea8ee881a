import { defineRoute, listQuerySchema, notFound, pagedEnvelope, pagedResponse } from '@ledger-api/http';
import type { Store } from '@ledger-api/store';
import { z } from 'zod';
import { presentGroup } from '../groups/presenter';
import { groupResource } from '../groups/schema';
import { presentUserDetail, presentUserSummary } from './presenter';
import { usersList } from './query-config';
import { usersRepository } from './repository';
import { userDetailResource, userParams, userSummaryResource } from './schema';

export function userRoutes(store: Store) {
  const repository = usersRepository(store);
  return [
    defineRoute({
      method: 'get',
      path: '/guardian/users',
      operationId: 'listUsers',
      summary: 'List users with their groups and permissions',
      tags: ['Guardian users'],
      query: listQuerySchema(usersList),
      response: pagedResponse(userSummaryResource),
      async handler({ query, location }) {
        const page = await repository.list(query);
        return pagedEnvelope(location, usersList, query, page, page.items.map(presentUserSummary));
      },
    }),
    defineRoute({
      method: 'get',
      path: '/guardian/users/:id',
      operationId: 'getUser',
      summary: 'Get a user by public key',
      tags: ['Guardian users'],
      params: userParams,
      response: z.object({ data: userDetailResource }),
      errors: [404],
      async handler({ params }) {
        const user = await repository.findByPublicKey(params.id);
        if (!user) throw notFound('User not found');
        return { data: presentUserDetail(user) };
      },
    }),
    defineRoute({
      method: 'get',
      path: '/guardian/users/:id/groups',
      operationId: 'listUserGroups',
      summary: "List a user's groups",
      description: "The user's groups in the user's own order; names without a group are skipped. Not paged.",
      tags: ['Guardian users'],
      params: userParams,
      response: z.object({ data: z.array(groupResource) }),
      errors: [404],
      async handler({ params }) {
        const groups = await repository.groupsOf(params.id);
        if (!groups) throw notFound('User not found');
        return { data: groups.map(presentGroup) };
      },
    }),
  ];
}
