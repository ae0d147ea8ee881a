import { writeFileSync } from 'node:fs';
import { relative } from 'node:path';
import { DOCUMENT_FILE } from '../paths';
import { documentText, generatePublicDocument } from '../public-document';

/** `npm run openapi` (first step): writes the public OpenAPI document from the code. */
const document = generatePublicDocument();
writeFileSync(DOCUMENT_FILE, documentText(document));
const operations = Object.values(document.paths).flatMap((item) => Object.keys(item)).length;
process.stdout.write(`openapi: ${relative(process.cwd(), DOCUMENT_FILE)} written, ${operations} operations\n`);
