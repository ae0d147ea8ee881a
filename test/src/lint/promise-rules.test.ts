import { lintPlanted } from './lint-planted';

/**
 * `npm run lint` refuses a promise nobody awaits and one handed where its result is
 * ignored, and lets a deliberate fire-and-forget marked `void` pass. The rules need type
 * information: the planted file is given a project of its own, as if it stood in a lib.
 */
const PLANTED = 'libs/cache/src/planted-promises.ts';
const WITH_TYPES = { files: ['**/*.ts'], languageOptions: { parserOptions: { projectService: { allowDefaultProject: [PLANTED] } } } };

const code = (body: string) => `const later = async (): Promise<number> => 1;\nexport function run(): void {\n  ${body}\n}\n`;

async function promiseFindings(body: string): Promise<string[]> {
  const [messages] = await lintPlanted([{ filePath: PLANTED, code: code(body) }], WITH_TYPES);
  return messages.map(({ ruleId, message }) => `${ruleId}: ${message}`);
}

describe('the promise rules', () => {
  it('refuse a promise nobody awaits', async () => {
    expect(await promiseFindings('later();')).toEqual([expect.stringMatching(/^@typescript-eslint\/no-floating-promises: /)]);
  }, 60_000);

  it('refuse an async callback where its result is ignored', async () => {
    expect(await promiseFindings('[1].forEach(async () => { await later(); });')).toEqual([
      expect.stringMatching(/^@typescript-eslint\/no-misused-promises: /),
    ]);
  }, 60_000);

  it('let a fire-and-forget marked void pass', async () => {
    expect(await promiseFindings('void later();')).toEqual([]);
  }, 60_000);
});
