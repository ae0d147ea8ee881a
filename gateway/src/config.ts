import { z } from 'zod';
import { env, loadConfig } from '@ledger-api/config';
import { DEFAULT_REQUEST_TIMEOUT_MS } from '@ledger-api/http';

const httpUrl = () => env.url(['http', 'https']).optional();

export const gatewayConfigSchema = z.object({
  PORT: env.port(4003),
  HOST: z.string().default('0.0.0.0'),
  GUARDIAN_URL: httpUrl(),
  NFT_BASE_URL: httpUrl(),
  NFT_EXCHANGE_URL: httpUrl(),
  REDIS_URL: env.url(['redis', 'rediss']).optional(),
  // 100 requests a second per client: room for paging through lists, a brake on floods.
  RATE_LIMIT_PER_MINUTE: env.int(6000),
  PROXY_TIMEOUT_MS: env.int(10_000, 1),
  // The time a client has to send a whole request, headers and body; a slower one gets 408.
  REQUEST_TIMEOUT_MS: env.int(DEFAULT_REQUEST_TIMEOUT_MS, 1),
  READY_TIMEOUT_MS: env.int(2_000, 1),
  TRUST_PROXY: env.flag(false),
  LOG_LEVEL: env.logLevel(),
});

export type GatewayConfig = z.output<typeof gatewayConfigSchema>;

/** Parses the gateway's environment; throws a ConfigError listing every problem. */
export function parseGatewayConfig(environment: Record<string, string | undefined>): GatewayConfig {
  return loadConfig(gatewayConfigSchema, environment);
}
