import { isIP } from 'node:net';
import { z } from 'zod';
import { AREAS, env, loadConfig } from '@ledger-api/config';
import { DEFAULT_KEEP_ALIVE_TIMEOUT_MS, DEFAULT_REQUEST_TIMEOUT_MS } from '@ledger-api/http-core';

const httpUrl = env.url(['http', 'https']);

/** One service URL, or a comma-separated list of the URLs of an area's replicas. */
const httpUrls = () =>
  z
    .string()
    .transform((value) => value.split(',').map((url) => url.trim()))
    .refine((urls) => urls.every((url) => httpUrl.safeParse(url).success), 'must be a URL (http, https) or a comma-separated list of them')
    .optional();

/** The URL variables of every listed area, its service's and its admin port's. */
function areaUrls() {
  const variables = AREAS.flatMap((area) => [area.urlVariable, area.adminUrlVariable]);
  return Object.fromEntries(variables.map((variable) => [variable, httpUrls()])) as Record<(typeof variables)[number], ReturnType<typeof httpUrls>>;
}

const NAMED_RANGES = new Set(['loopback', 'linklocal', 'uniquelocal']);

function isProxyAddress(entry: string): boolean {
  const [address, bits, ...rest] = entry.split('/');
  if (rest.length > 0 || !isIP(address)) return NAMED_RANGES.has(entry);
  return bits === undefined || (/^\d{1,3}$/.test(bits) && Number(bits) <= (isIP(address) === 4 ? 32 : 128));
}

/**
 * Whose X-Forwarded-For to believe, in Express's `trust proxy` terms: `false` (nobody: the client is the
 * connection's peer), a hop count (`1`: the address the nearest proxy appended, for one load balancer that
 * appends), or the proxies' addresses and subnets (`10.0.0.0/8,loopback`). `true` believes the left-most
 * address, which a client behind an appending proxy writes itself: only for a proxy that overwrites the header.
 */
function trustedProxies() {
  return z
    .string()
    .default('false')
    .transform((value, ctx): boolean | number | string[] => {
      if (value === 'true' || value === 'false') return value === 'true';
      if (/^\d+$/.test(value)) return Number(value);
      const entries = value.split(',').map((entry) => entry.trim());
      if (entries.every(isProxyAddress)) return entries;
      ctx.addIssue({ code: 'custom', message: 'must be true, false, a hop count or a comma-separated list of proxy addresses or subnets' });
      return z.NEVER;
    });
}

export const gatewayConfigSchema = z.object({
  // Where the gateway listens: the public API on PORT, on HOST.
  PORT: env.port(4003),
  HOST: z.string().default('0.0.0.0'),
  // /livez, /readyz and /metrics, on HOST: apart from the public port, which no client can make probe the services.
  ADMIN_PORT: env.port(9003),
  // GUARDIAN_URL, ...: each area's service, or its replicas taken in turn; an area without one answers 503.
  // GUARDIAN_ADMIN_URL, ...: each area's admin port (or its replicas'), whose /readyz the gateway's
  // /readyz asks; an area with a URL but none is reported not ready.
  ...areaUrls(),
  // Rate-limit counters shared by gateway replicas; unset: in-process counters.
  REDIS_URL: env.url(['redis', 'rediss']).optional(),
  // Requests per client per minute, 0 disabling the limit. 100 a second: room for paging through lists, a brake on floods.
  RATE_LIMIT_PER_MINUTE: env.int(6000),
  // Each replica counts in memory and adds its new hits to the shared counts in Redis this often; the limit
  // holds across replicas to within what the other replicas let through in one interval.
  RATE_LIMIT_SYNC_MS: env.int(1_000, 10, 60_000),
  // How long a service may take to answer a proxied request before the client gets 503.
  PROXY_TIMEOUT_MS: env.int(10_000, 1),
  // How often a replica that refused a connection or answered 503 is asked again whether it serves; meanwhile its area's other replicas answer.
  UPSTREAM_RECHECK_MS: env.int(500, 10),
  // Connections to each service, kept alive between requests; requests beyond wait for a free one.
  UPSTREAM_MAX_SOCKETS: env.int(64, 1),
  // An idle connection to a service is closed after this long (within a second more): under the services'
  // KEEP_ALIVE_TIMEOUT_MS (65 s), so the gateway never sends on a connection the service is closing.
  UPSTREAM_IDLE_TIMEOUT_MS: env.int(30_000, 1),
  // A connection to a service is closed after the first answer it completes at this age, 0 never: behind one
  // address that balances connections rather than requests (a Kubernetes Service), a replica added under steady
  // load gets requests only on connections opened after it came, and a reopened connection may reach it.
  UPSTREAM_SOCKET_MAX_AGE_MS: env.int(10_000, 0),
  // ... and after this many answers, 0 never: under heavy load connections are reopened, and spread, sooner.
  UPSTREAM_SOCKET_MAX_REQUESTS: env.int(1_000, 0),
  // The time a client has to send a whole request, headers and body; a slower one gets 408.
  REQUEST_TIMEOUT_MS: env.int(DEFAULT_REQUEST_TIMEOUT_MS, 1),
  // Idle keep-alive connections outlive a load balancer's idle timeout (60 s for the common ones).
  KEEP_ALIVE_TIMEOUT_MS: env.int(DEFAULT_KEEP_ALIVE_TIMEOUT_MS, 1),
  // How long each service's /readyz may take when the gateway's /readyz asks it.
  READY_TIMEOUT_MS: env.int(2_000, 1),
  // Whose X-Forwarded-For to believe (see trustedProxies).
  TRUST_PROXY: trustedProxies(),
  // Megabytes of answers the gateway keeps and answers itself while they are of their area's newest commit; 0 proxies every request.
  EDGE_CACHE_MB: env.int(64, 0, 65_536),
  // How many of each area's most recent commits the gateway keeps to resume live streams from; older ids are replayed by the service.
  EVENTS_BUFFER: env.int(1_000, 1),
  // Live streams one client address may hold at once (429 beyond).
  EVENTS_MAX_PER_CLIENT: env.int(8, 1),
  // Live streams this gateway process serves at once (503 beyond).
  EVENTS_MAX_STREAMS: env.int(10_000, 1),
  // An idle live stream carries a keep-alive comment at least this often.
  EVENTS_KEEP_ALIVE_MS: env.int(15_000, 100),
  // How soon a lost commit feed is connected again (doubling per failure, up to 2 s); its area is proxied meanwhile.
  FEED_RECONNECT_MS: env.int(250, 10),
  // At SIGTERM: serve on this long first, while the load balancer stops sending here (Kubernetes preStop).
  SHUTDOWN_DELAY_MS: env.int(0, 0),
  // Then, for this long, requests on open connections are still answered, each with Connection: close.
  SHUTDOWN_DRAIN_MS: env.int(1_000, 0),
  // The pino log level.
  LOG_LEVEL: env.logLevel(),
});

export type GatewayConfig = z.output<typeof gatewayConfigSchema>;

/** Parses the gateway's environment; throws a ConfigError listing every problem. */
export function parseGatewayConfig(environment: Record<string, string | undefined>): GatewayConfig {
  return loadConfig(gatewayConfigSchema, environment);
}
