import { freePort, startProcess, type RunningProcess } from './processes';

/**
 * The guardian service on the given ledger input, and a gateway in front of it that a test
 * can stop and start again on the same port. Every process started goes into `running`.
 */
export async function startGuardianBehindGateway(env: Record<string, string>, running: RunningProcess[]) {
  const servicePort = await freePort();
  running.push(startProcess('services/guardian/dist/main.js', { ...env, PORT: String(servicePort) }));
  const guardian = `http://127.0.0.1:${servicePort}`;
  const gatewayPort = await freePort();
  const startGateway = (): RunningProcess => {
    const gateway = startProcess('gateway/dist/index.js', { PORT: String(gatewayPort), GUARDIAN_URL: guardian, FEED_RECONNECT_MS: '50' });
    running.push(gateway);
    return gateway;
  };
  return { guardian, base: `http://127.0.0.1:${gatewayPort}`, gateway: startGateway(), startGateway };
}
