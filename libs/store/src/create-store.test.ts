import type * as StoreModule from './index';

describe('createStore', () => {
  it('gives the embedded store without a MongoDB URL, never loading the driver', async () => {
    let isolated: typeof StoreModule | undefined;
    jest.isolateModules(() => {
      jest.doMock('mongodb', () => {
        throw new Error('the MongoDB driver was loaded');
      });
      isolated = jest.requireActual<typeof StoreModule>('./index');
    });
    const store = await isolated!.createStore({ dbName: 'no-driver' });
    expect(store).toBeInstanceOf(isolated!.EmbeddedStore);
    await store.close();
  });
});
