import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { tempDir } from '../support/ledger-files';
import { runNpmScript } from '../support/npm-script';

/**
 * `npm run lint` fails on an import circle, type-only imports included: its `lint:circles`
 * step, run as the lint runs it, over planted workspaces in a folder of their own.
 */
type PlantedFiles = Record<string, string>;

async function circlesStep(files: PlantedFiles): Promise<{ failed: boolean; output: string }> {
  const dir = tempDir('circles');
  for (const [path, code] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), code);
  }
  return runNpmScript('lint:circles', ['--cwd', dir]);
}

const TIMEOUT_MS = 60_000;

describe('the import circle check of npm run lint', () => {
  it(
    'fails on two modules of a lib that import each other',
    async () => {
      const { failed, output } = await circlesStep({
        'libs/planted/src/runner.ts': "import { observe } from './observers';\nexport const run = () => observe();\n",
        'libs/planted/src/observers.ts':
          "import type { run } from './runner';\nexport const observe = (): ReturnType<typeof run> | void => undefined;\n",
      });
      expect(failed).toBe(true);
      expect(output).toMatch(/libs\/planted\/src\/(runner|observers)\.ts -> libs\/planted\/src\/(runner|observers)\.ts/);
    },
    TIMEOUT_MS,
  );

  it(
    'fails on a circle of type imports alone, through three files of a service',
    async () => {
      const { failed, output } = await circlesStep({
        'services/planted/src/a.ts': "import type { B } from './b';\nexport interface A { b: B }\n",
        'services/planted/src/b.ts': "import type { C } from './c';\nexport interface B { c: C }\n",
        'services/planted/src/c.ts': "import type { A } from './a';\nexport interface C { a?: A }\n",
      });
      expect(failed).toBe(true);
      expect(output).toContain('services/planted/src/a.ts');
    },
    TIMEOUT_MS,
  );

  it(
    'passes when the shared types sit in a types.ts both modules import',
    async () => {
      const { failed, output } = await circlesStep({
        'gateway/src/types.ts': 'export interface Outcome { ok: boolean }\n',
        'gateway/src/runner.ts':
          "import { observe } from './observers';\nimport type { Outcome } from './types';\nexport const run = (): Outcome => observe();\n",
        'gateway/src/observers.ts': "import type { Outcome } from './types';\nexport const observe = (): Outcome => ({ ok: true });\n",
      });
      expect(failed).toBe(false);
      expect(output).toContain('no circular dependency');
    },
    TIMEOUT_MS,
  );
});
