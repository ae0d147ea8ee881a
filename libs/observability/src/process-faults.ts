import type { EventEmitter } from 'node:events';
import type { Logger } from './logger';

export interface UnexpectedErrorOptions {
  /** How the process ends; tests give their own. */
  exit?: (code: number) => void;
  /** Where the events come from; tests give their own. */
  events?: Pick<EventEmitter, 'on'>;
}

type Origin = 'uncaughtException' | 'unhandledRejection';

/**
 * The last resort of every process (gateway, services, launcher, long-running CLIs): an
 * exception nothing caught, or a promise rejected with no handler, leaves the process in a
 * state nothing vouches for. It is logged with its stack, and the process exits 1 so that its
 * supervisor (Kubernetes, compose, the local-stack launcher) starts it again. The logger's
 * buffered lines are written at exit.
 */
export function exitOnUnexpectedErrors(logger: Pick<Logger, 'fatal'>, options: UnexpectedErrorOptions = {}): void {
  const { exit = (code: number) => process.exit(code), events = process } = options;
  const fail = (origin: Origin) => (error: unknown) => {
    logger.fatal({ err: error, origin }, 'unexpected exception; exiting so that the process is restarted');
    exit(1);
  };
  events.on('uncaughtException', fail('uncaughtException'));
  events.on('unhandledRejection', fail('unhandledRejection'));
}
