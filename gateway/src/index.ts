import { loadConfigOrExit } from '@ledger-api/config';
import { drainServer, GracefulShutdown, startAdminServer } from '@ledger-api/http-core';
import { createLogger, createMetrics, exitOnUnexpectedErrors, type Logger } from '@ledger-api/observability';
import { buildApp } from './app';
import { clientAddressOf } from './client-address';
import { createGatewayEdge } from './edge';
import { gatewayConfigSchema, type GatewayConfig } from './config';
import { connectRateLimitRedis, redisSharedCounts } from './rate-limit';
import { gatewayReadiness } from './readiness';
import { listen } from './server';
import { configuredUpstreams, createUpstreamAgent, type Upstream } from './upstreams';

const RATE_LIMIT_KEY_PREFIX = 'gateway:rate-limit:';

async function main(): Promise<void> {
  const config = loadConfigOrExit(gatewayConfigSchema);
  const logger = createLogger({ name: 'gateway', level: config.LOG_LEVEL });
  exitOnUnexpectedErrors(logger);
  const redis = config.REDIS_URL ? connectRateLimitRedis(config.REDIS_URL, logger) : undefined;
  const upstreamAgent = createUpstreamAgent(config);
  const metrics = createMetrics('gateway');
  const edge = createGatewayEdge(config, { logger, metrics, clientAddress: clientAddressOf(config) });
  const served = buildApp(config, {
    logger,
    metrics,
    rateLimitCounts: redis && redisSharedCounts(redis, RATE_LIMIT_KEY_PREFIX),
    upstreamAgent,
    edge,
  });
  edge.start();
  const server = await listen(served, config.PORT, config.HOST, {
    requestTimeoutMs: config.REQUEST_TIMEOUT_MS,
    keepAliveTimeoutMs: config.KEEP_ALIVE_TIMEOUT_MS,
  });
  const upstreams = configuredUpstreams(config);
  const admin = await startAdminServer({
    readiness: gatewayReadiness(upstreams, edge.feeds, config.READY_TIMEOUT_MS),
    metrics,
    port: config.ADMIN_PORT,
    host: config.HOST,
  });
  logListening(logger, config, upstreams, redis !== undefined);
  stopOnSignal(logger, config, { server, admin, edge, upstreamAgent, redis });
}

function logListening(logger: Logger, config: GatewayConfig, upstreams: Upstream[], sharedRateLimits: boolean): void {
  const services = upstreams.map(({ service, baseUrls, adminUrls }) => ({ service, baseUrls, adminUrls }));
  const edgeCache = config.EDGE_CACHE_MB > 0 ? `${config.EDGE_CACHE_MB} MB` : 'off';
  logger.info(
    {
      host: config.HOST,
      port: config.PORT,
      adminPort: config.ADMIN_PORT,
      services,
      edgeCache,
      rateLimitCounts: sharedRateLimits ? 'memory, shared in redis' : 'memory',
    },
    'gateway listening',
  );
}

/** What a running gateway holds open until it stops. */
interface GatewayHandles {
  server: Awaited<ReturnType<typeof listen>>;
  admin: Awaited<ReturnType<typeof startAdminServer>>;
  edge: ReturnType<typeof createGatewayEdge>;
  upstreamAgent: ReturnType<typeof createUpstreamAgent>;
  redis: ReturnType<typeof connectRateLimitRedis> | undefined;
}

function stopOnSignal(logger: Logger, config: GatewayConfig, { server, admin, edge, upstreamAgent, redis }: GatewayHandles): void {
  // No hard deadline: closing the server bounds itself, cutting what still runs at its deadline.
  new GracefulShutdown({
    logger,
    async stop() {
      // In-flight requests end within the proxy timeout; a little slack lets their answers out.
      const drained = await drainServer(server, {
        delayMs: config.SHUTDOWN_DELAY_MS,
        drainMs: config.SHUTDOWN_DRAIN_MS,
        deadlineMs: config.SHUTDOWN_DRAIN_MS + config.PROXY_TIMEOUT_MS + 1_000,
        // Live streams never end by themselves. /readyz has said 503 since the signal: once the
        // delay has taken the gateway out of the load balancers, they end with a short retry,
        // and their clients reconnect to another replica and resume there.
        onDelayEnd: () => edge.stop(),
      });
      if (!drained) logger.warn('requests still running at the shutdown deadline were cut');
      // Probes answer until the public port has drained: a liveness probe failing meanwhile would kill the process.
      await admin.close();
      upstreamAgent.destroy();
      redis?.disconnect();
      logger.info('gateway stopped');
    },
  }).listen();
}

main().catch((error: unknown) => {
  process.stderr.write(`gateway failed to start: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
});
