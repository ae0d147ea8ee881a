import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT } from '../support/processes';
import { lintPlanted } from './lint-planted';

/**
 * `npm run lint` holds production files to 300 lines and functions to 40: a planted file or
 * function one line too long is refused, one at the limit passes, and tests and test kits are
 * not held to it. Every exemption in size-exceptions.json is still needed: a file that fits
 * the limits again leaves the list.
 */
const SIZE_RULES = new Set(['max-lines', 'max-lines-per-function']);

const linesOf = (count: number, line: (index: number) => string) => Array.from({ length: count }, (_, index) => line(index)).join('\n');
/** A function of exactly `lines` lines, its braces included. */
const functionOf = (lines: number) =>
  `export function planted(): number {\n  let total = 0;\n${linesOf(lines - 4, (i) => `  total += ${i};`)}\n  return total;\n}\n`;
/** A file of exactly `lines` lines. */
const fileOf = (lines: number) => `${linesOf(lines, (i) => `export const value${i} = ${i};`)}\n`;

// The planted files are not on disk, so the rules that need type information stay off for them (see promise-rules.test.ts).
const WITHOUT_TYPES = {
  languageOptions: { parserOptions: { projectService: false } },
  rules: { '@typescript-eslint/no-floating-promises': 'off', '@typescript-eslint/no-misused-promises': 'off' },
};

async function sizeProblems(files: Array<{ filePath: string; code: string }>): Promise<string[][]> {
  const messages = await lintPlanted(files, WITHOUT_TYPES);
  return messages.map((found) => found.filter(({ ruleId }) => ruleId !== null && SIZE_RULES.has(ruleId)).map(({ ruleId }) => ruleId!));
}

describe('the size limits of production code', () => {
  it('refuses a function of 41 lines and a file of 301, in a lib, a service, the gateway, the client and a tool', async () => {
    const paths = [
      'libs/store/src/planted.ts',
      'services/guardian/src/groups/planted.ts',
      'gateway/src/planted.ts',
      'client/src/planted.ts',
      'tools/openapi/src/planted.ts',
    ];
    const problems = await sizeProblems(
      paths.flatMap((filePath) => [
        { filePath, code: functionOf(41) },
        { filePath, code: fileOf(301) },
      ]),
    );
    expect(problems).toEqual(paths.flatMap(() => [['max-lines-per-function'], ['max-lines']]));
  }, 60_000);

  it('lets a function of 40 lines and a file of 300 pass, and holds tests and test kits to neither', async () => {
    const problems = await sizeProblems([
      { filePath: 'libs/store/src/planted.ts', code: functionOf(40) },
      { filePath: 'libs/store/src/planted.ts', code: fileOf(300) },
      { filePath: 'libs/store/src/planted.test.ts', code: functionOf(80) + fileOf(400) },
      { filePath: 'libs/store/src/testing/planted.ts', code: functionOf(80) + fileOf(400) },
    ]);
    expect(problems).toEqual([[], [], [], []]);
  }, 60_000);

  it('exempts only files that still need it', async () => {
    const exceptions = Object.keys(JSON.parse(readFileSync(join(ROOT, 'size-exceptions.json'), 'utf8')) as Record<string, string>);
    const files = exceptions.map((filePath) => ({ filePath: `${filePath}.unexempted.ts`, code: readFileSync(join(ROOT, filePath), 'utf8') }));
    const problems = await sizeProblems(files);
    expect(exceptions.filter((_, index) => problems[index].length === 0)).toEqual([]);
  }, 60_000);
});
