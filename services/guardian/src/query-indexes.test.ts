import { EmbeddedStore } from '@ledger-api/store';
import { issueListRoutes, poorlyIndexed, RecordingStore, routeQuerySummary, type ListRoute } from '@ledger-api/store/testing';
import { groupsList } from './groups/query-config';
import { groupsRepository } from './groups/repository';
import { guardianProjection } from './projection';
import { usersList } from './users/query-config';
import { usersRepository } from './users/repository';

const specs = guardianProjection.collections;
/** Flags: an equality on one alone narrows too little to sort its matches in memory. */
const lowCardinality = { groups: ['active', 'default'] };

async function issuedReads() {
  const store = new RecordingStore(new EmbeddedStore());
  await store.ensureCollections(specs);
  // The documents lookups need to go on to their next read.
  await store.applyWrites([
    { collection: 'groups', id: 'g', doc: { _id: 'g', name: 'g' } },
    { collection: 'users', id: 'u', doc: { _id: 'u', publicKey: 'u', groups: ['g'] } },
  ]);
  const groups = groupsRepository(store);
  const users = usersRepository(store);
  const lookups = async () => {
    await Promise.all([groups.findById('g'), groups.members('g'), users.findById('u'), users.groupsOf('u')]);
  };
  const routes: ListRoute[] = [
    { route: 'GET /guardian/groups', ...groupsList, read: (query) => groups.list(query) },
    { route: 'GET /guardian/users', ...usersList, read: (query) => users.list(query) },
    { route: 'lookups by name, key and membership', filters: {}, orderable: {}, read: lookups },
  ];
  return issueListRoutes(store, routes);
}

describe('the guardian queries', () => {
  it('have an index for every read every route issues', async () => {
    expect(poorlyIndexed(await issuedReads(), specs, { lowCardinality })).toEqual([]);
  });

  it('build these filters and sorts', async () => {
    expect(routeQuerySummary(await issuedReads())).toMatchSnapshot();
  });
});
