import { createLogger } from '@ledger-api/observability';
import { publishLedgerFile } from '../publish';
import { DEFAULT_LEDGER_STREAM, DEFAULT_SUBJECT_PREFIX } from '../stream';

/**
 * Publishes a ledger file to NATS JetStream:
 *   node libs/ledger/dist/cli/publish.js <file.jsonl>
 * NATS_URL (default nats://127.0.0.1:4222), LEDGER_STREAM (default LEDGER),
 * LEDGER_SUBJECT_PREFIX (default ledger.block). Prints a one-line JSON summary.
 */
async function main(): Promise<void> {
  const file = process.argv[2];
  if (!file) throw new Error('usage: ledger:publish <file.jsonl>');
  const summary = await publishLedgerFile({
    file,
    servers: process.env.NATS_URL || 'nats://127.0.0.1:4222',
    stream: process.env.LEDGER_STREAM || DEFAULT_LEDGER_STREAM,
    subjectPrefix: process.env.LEDGER_SUBJECT_PREFIX || DEFAULT_SUBJECT_PREFIX,
    logger: createLogger({ name: 'ledger-publish', level: 'warn' }),
  });
  process.stdout.write(`${JSON.stringify(summary)}\n`);
}

main().catch((error: Error) => {
  process.stderr.write(`ledger:publish failed: ${error.message}\n`);
  process.exit(1);
});
