import type { Logger } from '@ledger-api/observability';

export interface GracefulShutdownOptions {
  logger: Pick<Logger, 'info' | 'error'>;
  /** Stops the process's work: stop accepting, finish what is in flight, release connections. */
  stop(): Promise<void>;
  /**
   * A hard limit: once it passes, the process exits 1 whatever is still running. Without
   * one, `stop` must bound itself (the gateway cuts its connections at its own deadline).
   */
  deadlineMs?: number;
  /** How the process ends; tests give their own. */
  exit?: (code: number) => void;
}

export const SHUTDOWN_SIGNALS: readonly NodeJS.Signals[] = ['SIGTERM', 'SIGINT'];

/**
 * The shutdown of every long-running process (gateway and services alike): the first
 * SIGTERM or SIGINT stops the work and exits 0. A later signal joins the shutdown in
 * progress instead of starting a second one: Ctrl-C reaches a child both directly and
 * through the launcher's SIGTERM, and the close steps must not run twice.
 */
export class GracefulShutdown {
  private stopping?: Promise<void>;
  private readonly exit: (code: number) => void;

  constructor(private readonly options: GracefulShutdownOptions) {
    this.exit = options.exit ?? ((code) => process.exit(code));
  }

  /** Shuts down on the first of these signals. */
  listen(signals: readonly NodeJS.Signals[] = SHUTDOWN_SIGNALS): this {
    for (const signal of signals) process.on(signal, (received: NodeJS.Signals) => void this.shutdown(received));
    return this;
  }

  /** Runs the shutdown once, however often it is asked for. */
  shutdown(signal: NodeJS.Signals): Promise<void> {
    this.stopping ??= this.run(signal);
    return this.stopping;
  }

  private async run(signal: NodeJS.Signals): Promise<void> {
    const { logger, deadlineMs } = this.options;
    logger.info({ signal }, 'shutting down');
    if (deadlineMs !== undefined) {
      // Unref'd: a shutdown that finishes in time must not be held open by its own deadline.
      setTimeout(() => {
        logger.error('shutdown deadline passed, exiting');
        this.exit(1);
      }, deadlineMs).unref();
    }
    try {
      await this.options.stop();
    } catch (error) {
      logger.error({ err: error }, 'shutdown failed');
      this.exit(1);
      return;
    }
    this.exit(0);
  }
}
