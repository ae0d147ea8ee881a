import { loadConfigOrExit } from '@ledger-api/config';
import { GracefulShutdown } from '@ledger-api/http';
import { createLogger, exitOnUnexpectedErrors } from '@ledger-api/observability';
import type { AreaDefinition } from './area';
import { serviceConfigSchema } from './config';
import { startService } from './service';

/** Process entry point of a service: validated config, start, graceful shutdown on SIGTERM/SIGINT. */
export async function runService(definition: AreaDefinition): Promise<void> {
  const config = loadConfigOrExit(
    serviceConfigSchema({ area: definition.area, port: definition.defaultPort, adminPort: definition.defaultAdminPort }),
  );
  const logger = createLogger({ name: definition.area, level: config.LOG_LEVEL });
  exitOnUnexpectedErrors(logger);
  let service;
  try {
    service = await startService(definition, config, logger);
  } catch (error) {
    logger.fatal({ err: error }, 'service failed to start');
    process.exit(1);
  }
  const running = service;
  const deadlineMs = config.SHUTDOWN_DELAY_MS + config.SHUTDOWN_TIMEOUT_MS;
  new GracefulShutdown({ logger, deadlineMs, stop: () => running.close() }).listen();
}
