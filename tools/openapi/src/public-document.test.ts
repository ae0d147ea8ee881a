import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { documentText, generatePublicDocument } from './public-document';
import { DOCUMENT_FILE, ROOT } from './paths';

const CLIENT_DIR = join(ROOT, 'client');
const CLIENT_TYPES_FILE = join(CLIENT_DIR, 'src', 'generated', 'schema.ts');

/** The first line where the committed text departs from the generated one, with its number. */
function firstDifference(committed: string, generated: string): string {
  const committedLines = committed.split('\n');
  const generatedLines = generated.split('\n');
  const index = generatedLines.findIndex((line, position) => line !== committedLines[position]);
  const at = index === -1 ? generatedLines.length : index;
  return `line ${at + 1}: committed ${JSON.stringify(committedLines[at] ?? null)}, generated ${JSON.stringify(generatedLines[at] ?? null)}`;
}

function expectCommitted(file: string, committed: string, generated: string): void {
  if (committed === generated) return;
  throw new Error(`${file} is out of date: run \`npm run openapi\` and commit the result (${firstDifference(committed, generated)})`);
}

describe('the committed OpenAPI document', () => {
  it('is the document the code generates', () => {
    expectCommitted('gateway/openapi.json', readFileSync(DOCUMENT_FILE, 'utf8'), documentText(generatePublicDocument()));
  });

  it("is the one the client's types were generated from", () => {
    // The client's own generator, as its `generate` script runs it, found from the client's folder.
    // eslint-disable-next-line n/no-restricted-require -- the client's devDependency, not one of this workspace
    const generatorDir = dirname(require.resolve('openapi-typescript/package.json', { paths: [CLIENT_DIR] }));
    const cli = join(generatorDir, 'bin', 'cli.js');
    const generated = execFileSync(process.execPath, [cli, DOCUMENT_FILE], { encoding: 'utf8' });
    expectCommitted('client/src/generated/schema.ts', readFileSync(CLIENT_TYPES_FILE, 'utf8'), generated);
  });
});
