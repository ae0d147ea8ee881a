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
 *
 * Node's constructors build each object, with `newTarget` only lending its prototype: V8
 * then sizes the object by what Node's constructors store on it. Calling Node's
 * constructors on an object made by a function of our own instead sized it by that
 * function, which stores nothing: every request and response outgrew its room and was
 * rebuilt property by property (callgrind: 246,000 instructions per cached answer
 * before, 192,000 after).
 */
function messageClassesOf(app: Express): HttpServerOptions['messageClasses'] {
  const requestTarget = prototypeHolder(app.request);
  const responseTarget = prototypeHolder(app.response);
  // `new` makes an object of these functions' own first; they answer Node's instead.
  function Request(...args: ConstructorParameters<typeof IncomingMessage>) {
    return Reflect.construct(IncomingMessage, args, requestTarget) as IncomingMessage;
  }
  function Response(...args: ConstructorParameters<typeof ServerResponse>) {
    return Reflect.construct(ServerResponse, args, responseTarget) as ServerResponse;
  }
  return { IncomingMessage: Request as unknown as typeof IncomingMessage, ServerResponse: Response as unknown as typeof ServerResponse };
}

/** A constructor that is only ever a `newTarget`: the objects made for it get `prototype`. */
function prototypeHolder(prototype: object): new () => unknown {
  function PrototypeHolder() {}
  PrototypeHolder.prototype = prototype;
  return PrototypeHolder as unknown as new () => unknown;
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
