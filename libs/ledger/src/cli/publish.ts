import { loadConfigOrExit } from '@ledger-api/config';
import { createLogger, exitOnUnexpectedErrors } from '@ledger-api/observability';
import { z } from 'zod';
import { checkNatsEnvironment, ledgerStreamSettings, natsCredentials, natsEnvironment } from '../nats-settings';
import { publishLedgerFile } from '../publish';
import { DEFAULT_LEDGER_STREAM, DEFAULT_SUBJECT_PREFIX } from '../stream';

const publisherConfigSchema = z
  .object({
    // The NATS server whose JetStream holds the ledger stream.
    NATS_URL: z.string().default('nats://127.0.0.1:4222'),
    // The stream, and the prefix of its subjects (<prefix>.applied, <prefix>.reverted), as the services read them.
    LEDGER_STREAM: z.string().default(DEFAULT_LEDGER_STREAM),
    LEDGER_SUBJECT_PREFIX: z.string().default(DEFAULT_SUBJECT_PREFIX),
    ...natsEnvironment,
  })
  .superRefine(checkNatsEnvironment);

/**
 * Publishes a ledger file to NATS JetStream, creating the stream if it is missing:
 *   node libs/ledger/dist/cli/publish.js [--if-empty] <file.jsonl>
 * --if-empty publishes nothing into a stream that holds events already: a first run's seed.
 * Configured by the environment (publisherConfigSchema). Prints a one-line JSON summary.
 */
async function main(): Promise<void> {
  const args = process.argv.slice(2);
  const onlyIntoEmptyStream = args[0] === '--if-empty';
  const file = args[onlyIntoEmptyStream ? 1 : 0];
  if (!file) throw new Error('usage: ledger:publish [--if-empty] <file.jsonl>');
  const config = loadConfigOrExit(publisherConfigSchema);
  const logger = createLogger({ name: 'ledger-publish', level: 'warn' });
  exitOnUnexpectedErrors(logger);
  const summary = await publishLedgerFile({
    file,
    onlyIntoEmptyStream,
    servers: config.NATS_URL,
    credentials: natsCredentials(config),
    streamSettings: ledgerStreamSettings(config),
    stream: config.LEDGER_STREAM,
    subjectPrefix: config.LEDGER_SUBJECT_PREFIX,
    logger,
  });
  process.stdout.write(`${JSON.stringify(summary)}\n`);
}

main().catch((error: Error) => {
  process.stderr.write(`ledger:publish failed: ${error.message}\n`);
  process.exit(1);
});
