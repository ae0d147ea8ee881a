import { loadConfigOrExit } from '@ledger-api/config';
import { createLogger } from '@ledger-api/observability';
import type { AreaDefinition } from './area';
import { serviceConfigSchema } from './config';
import { startService } from './service';

/** Process entry point of a service: validated config, start, graceful shutdown on SIGTERM/SIGINT. */
export async function runService(definition: AreaDefinition): Promise<void> {
  const config = loadConfigOrExit(serviceConfigSchema({ area: definition.area, port: definition.defaultPort }));
  const logger = createLogger({ name: definition.area, level: config.LOG_LEVEL });
  let service;
  try {
    service = await startService(definition, config, logger);
  } catch (error) {
    logger.fatal({ err: error }, 'service failed to start');
    process.exit(1);
  }
  const running = service;
  const shutdown = async (signal: string) => {
    logger.info({ signal }, 'shutting down');
    setTimeout(() => {
      logger.error('shutdown deadline passed, exiting');
      process.exit(1);
    }, config.SHUTDOWN_TIMEOUT_MS).unref();
    await running.close();
    process.exit(0);
  };
  process.once('SIGTERM', (signal) => void shutdown(signal));
  process.once('SIGINT', (signal) => void shutdown(signal));
}
