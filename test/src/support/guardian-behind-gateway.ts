import { freeAddress, startProcess, type RunningProcess } from './processes';

/**
 * The guardian service on the given ledger input, and a gateway in front of it (with
 * `gatewayEnv` added to its environment), each of which a test can stop and start again on
 * the same ports. Every process started goes into `running`. `base` is the gateway's public
 * URL, `admin` its admin port (readiness and metrics); `guardianAdmin` is the service's.
 */
export async function startGuardianBehindGateway(env: Record<string, string>, running: RunningProcess[], gatewayEnv: Record<string, string> = {}) {
  const service = await freeAddress();
  const startService = (): RunningProcess => {
    const started = startProcess('services/guardian/dist/main.js', { ...env, ...service.env });
    running.push(started);
    return started;
  };
  const gateway = await freeAddress();
  const startGateway = (): RunningProcess => {
    const started = startProcess('gateway/dist/index.js', {
      ...gateway.env,
      GUARDIAN_URL: service.url,
      GUARDIAN_ADMIN_URL: service.adminUrl,
      FEED_RECONNECT_MS: '50',
      ...gatewayEnv,
    });
    running.push(started);
    return started;
  };
  return {
    guardian: service.url,
    guardianAdmin: service.adminUrl,
    guardianProcess: startService(),
    startService,
    base: gateway.url,
    admin: gateway.adminUrl,
    gateway: startGateway(),
    startGateway,
  };
}
