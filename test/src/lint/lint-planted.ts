import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { ROOT } from '../support/processes';

/** A file that is not on disk, linted as if it stood at `filePath` (from the repository root). */
export interface PlantedFile {
  filePath: string;
  code: string;
}

/** Which message a rule gave, by line. */
export interface LintMessage {
  ruleId: string | null;
  line: number;
  message: string;
}

// ESLint loads its configuration with a dynamic import, which jest's module sandbox refuses:
// the files are linted in one plain Node process, which reads them and the configuration
// added to the project's own from stdin, and prints each file's messages.
const LINT_SCRIPT = `
import { ESLint } from 'eslint';
const { files, overrideConfig } = JSON.parse(await new Response(process.stdin).text());
const eslint = new ESLint({ cwd: process.cwd(), overrideConfig });
const messages = [];
for (const { filePath, code } of files) {
  const [result] = await eslint.lintText(code, { filePath });
  messages.push(result.messages.map(({ ruleId, line, message }) => ({ ruleId, line, message })));
}
process.stdout.write(JSON.stringify(messages));
`;

/** Lints planted files with the project's configuration and `overrideConfig` on top; the messages of each file, in order. */
export async function lintPlanted(files: PlantedFile[], overrideConfig: object): Promise<LintMessage[][]> {
  const lint = promisify(execFile)(process.execPath, ['--input-type=module', '-e', LINT_SCRIPT], { cwd: ROOT });
  lint.child.stdin?.end(JSON.stringify({ files, overrideConfig }));
  return JSON.parse((await lint).stdout) as LintMessage[][];
}
