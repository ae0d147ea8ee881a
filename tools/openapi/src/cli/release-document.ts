import { copyFileSync, writeFileSync } from 'node:fs';
import { relative } from 'node:path';
import { APPROVALS_FILE, DOCUMENT_FILE, RELEASED_FILE } from '../paths';

/**
 * `npm run openapi:release`, when a version of the API goes out: the current document
 * becomes the released one the next changes are checked against, and the approvals of
 * the changes it carries are spent.
 */
copyFileSync(DOCUMENT_FILE, RELEASED_FILE);
writeFileSync(APPROVALS_FILE, `${JSON.stringify({ approved: [] }, null, 2)}\n`);
process.stdout.write(`openapi: ${relative(process.cwd(), DOCUMENT_FILE)} released; no breaking change approved since\n`);
