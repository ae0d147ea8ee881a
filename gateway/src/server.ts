import { IncomingMessage, ServerResponse, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Express } from 'express';
import { createHttpServer, type HttpServerOptions } from '@ledger-api/http-core';
import type { GatewayApp } from './app';

/**
 * Node's request and response classes, made with the app's own request and response
 * prototypes. Express otherwise swaps the prototype of every request and response it
 * handles, and V8 then takes its slow paths for every property of them for the rest of
 * the request (measured: a fifth of the gateway's instructions per proxied request).
 * Finding the prototype already in place, Express's swap changes nothing.
 */
function messageClassesOf(app: Express): HttpServerOptions['messageClasses'] {
  function Request(this: IncomingMessage, ...args: ConstructorParameters<typeof IncomingMessage>) {
    Reflect.apply(IncomingMessage, this, args);
  }
  Request.prototype = app.request;
  function Response(this: ServerResponse, ...args: ConstructorParameters<typeof ServerResponse>) {
    Reflect.apply(ServerResponse, this, args);
  }
  Response.prototype = app.response;
  return { IncomingMessage: Request as unknown as typeof IncomingMessage, ServerResponse: Response as unknown as typeof ServerResponse };
}

/** Serves the gateway; requests Node refuses, and clients slower than requestTimeoutMs, get the error body. */
export async function listen({ app, handle }: GatewayApp, port: number, host: string, options: HttpServerOptions = {}): Promise<Server> {
  const server = createHttpServer(handle, { ...options, messageClasses: messageClassesOf(app) });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  return server;
}

export function portOf(server: Server): number {
  return (server.address() as AddressInfo).port;
}
