import { loadConfig } from '@ledger-api/config';
import { guardianArea } from '@ledger-api/guardian';
import { PushedLedgerSource, TestLedger } from '@ledger-api/ledger/testing';
import { silentLogger } from '@ledger-api/observability';
import { serviceConfigSchema, startService } from '@ledger-api/runtime';
import { waitFor } from '@ledger-api/test-kit';
import { freeAddress, startProcess, type RunningProcess } from '../support/processes';

/**
 * A service replaying its ledger after a start, alone and behind a gateway: while it
 * replays, its 503s name no height of the half-built read model, and the gateway is not
 * ready; once it has caught up, both serve with the height they read at.
 */

/** Delivers what is pushed but reports caught up only when told to: a replay in progress. */
class ReplayingSource extends PushedLedgerSource {
  caughtUpNow = false;
  override async caughtUp(): Promise<boolean> {
    return this.caughtUpNow && super.caughtUp();
  }
}

const REPLAY_MESSAGE = 'The ledger is still being replayed, try again shortly';

let gateway: RunningProcess | undefined;
let closeService: (() => Promise<void>) | undefined;

afterAll(async () => {
  await gateway?.stop();
  await closeService?.();
});

async function startReplayingGuardian(source: ReplayingSource) {
  const schema = serviceConfigSchema({ area: guardianArea.area, port: guardianArea.defaultPort, adminPort: guardianArea.defaultAdminPort });
  const config = { ...loadConfig(schema, { HOST: '127.0.0.1', LOG_LEVEL: 'warn' }), PORT: 0, ADMIN_PORT: 0 };
  const service = await startService(guardianArea, config, silentLogger(), { source });
  closeService = () => service.close();
  return { url: `http://127.0.0.1:${service.port}`, adminUrl: `http://127.0.0.1:${service.adminPort}` };
}

const readyStatus = async (adminUrl: string) => (await fetch(`${adminUrl}/readyz`)).status;

it('answers a replay 503 without X-Block-Height, directly and through the gateway, which turns ready once its feed is live', async () => {
  const ledger = new TestLedger();
  ledger.block([]);
  ledger.block([]);
  const source = new ReplayingSource();
  source.push(...ledger.take());
  const service = await startReplayingGuardian(source);
  const address = await freeAddress();
  gateway = startProcess('gateway/dist/index.js', {
    ...address.env,
    HOST: '127.0.0.1',
    GUARDIAN_URL: service.url,
    GUARDIAN_ADMIN_URL: service.adminUrl,
    FEED_RECONNECT_MS: '50',
  });
  const serviceHeight = async () => ((await (await fetch(`${service.adminUrl}/readyz`)).json()) as { height: number }).height;
  await waitFor(async () => (await serviceHeight()) === 2, 'both blocks applied during the replay');
  await waitFor(async () => (await fetch(`${address.adminUrl}/livez`).catch(() => undefined))?.status === 200, 'the gateway up');

  for (const url of [`${service.url}/guardian/groups`, `${address.url}/api/guardian/groups`]) {
    const refused = await fetch(url);
    expect({ url, status: refused.status, height: refused.headers.get('x-block-height') }).toEqual({ url, status: 503, height: null });
    expect(await refused.json()).toMatchObject({ statusCode: 503, message: REPLAY_MESSAGE });
  }
  const notReady = await fetch(`${address.adminUrl}/readyz`);
  expect(notReady.status).toBe(503);
  expect(await notReady.json()).toMatchObject({ services: { guardian: 'not ready' }, feeds: { guardian: expect.not.stringMatching(/^live$/) } });

  source.caughtUpNow = true;
  await waitFor(async () => (await readyStatus(address.adminUrl)) === 200, 'the gateway ready');
  const served = await fetch(`${address.url}/api/guardian/groups`);
  expect({ status: served.status, height: served.headers.get('x-block-height') }).toEqual({ status: 200, height: '2' });
  const stream = await fetch(`${address.url}/api/guardian/events`);
  expect(stream.status).toBe(200);
  await stream.body?.cancel();
});
