import type { Request } from 'express';
import type { GatewayConfig } from './config';

/** Who a request comes from, for the rate limit and the live-stream limits alike. */
export function clientAddressOf(config: Pick<GatewayConfig, 'TRUST_PROXY'>): (req: Request) => string | undefined {
  // Trusting no proxy, the client is the connection's peer: no X-Forwarded-For to parse for it.
  return config.TRUST_PROXY === false ? (req) => req.socket.remoteAddress : (req) => req.ip;
}
