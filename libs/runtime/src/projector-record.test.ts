import { EMPTY_POSITION, type ProjectorState } from '@ledger-api/ledger';
import { silentLogger } from '@ledger-api/observability';
import { EmbeddedStore } from '@ledger-api/store';
import { ProjectorStateRecorder, readStoredProjectorState } from './projector-record';

describe('the stored projector state', () => {
  const store = new EmbeddedStore();
  const recorder = new ProjectorStateRecorder(store, silentLogger());
  const enter = async (state: ProjectorState, fault?: string) => {
    recorder.stateChanged({ state, position: EMPTY_POSITION, ...(fault && { fault }) });
    await recorder.settled();
    return readStoredProjectorState(store);
  };

  it('holds what the writing projector last entered, and when the read model first caught up', async () => {
    expect(await enter('starting')).toBeUndefined();
    expect(await enter('catching-up')).toEqual({ state: 'replaying', reportedBy: expect.any(String), updatedAt: expect.any(String) });

    const caughtUp = await enter('caught-up');
    expect(caughtUp).toMatchObject({ state: 'caught_up', caughtUpAt: expect.any(String) });
    // A projector standing by writes nothing: the record stays the writer's.
    expect(await enter('standby')).toEqual(caughtUp);
    expect(await enter('catching-up')).toMatchObject({ state: 'replaying', caughtUpAt: caughtUp?.caughtUpAt });
    expect(await enter('faulted', 'block 7 (ab12): gap')).toMatchObject({
      state: 'faulted',
      fault: 'block 7 (ab12): gap',
      caughtUpAt: caughtUp?.caughtUpAt,
    });
    expect(await enter('stopped')).toMatchObject({ state: 'faulted' });
  });
});
