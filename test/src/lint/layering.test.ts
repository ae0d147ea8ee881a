import { lintPlanted, type PlantedFile } from './lint-planted';

/**
 * The layering design.md states is enforced by `npm run lint`: each rule refuses a planted
 * import where it must, and lets the same import pass where the layering allows it. Each
 * planted file is linted as if it stood at its path, with the project's own configuration.
 */
const REFUSED: [what: string, filePath: string, module: string, reason: string][] = [
  ['a lib imports a service', 'libs/ledger/src/planted.ts', '@ledger-api/nft-base', 'never depends on a service'],
  ['a lib imports the gateway', 'libs/runtime/src/planted.ts', '@ledger-api/gateway/openapi-document', 'never depends on a service'],
  ['the store imports HTTP code', 'libs/store/src/planted.ts', '@ledger-api/http-core', 'nothing of HTTP'],
  ['the store imports Koa', 'libs/store/src/embedded/planted.ts', 'koa', 'nothing of HTTP'],
  ['the gateway imports the services’ web framework', 'gateway/src/planted.ts', 'koa', 'no web framework'],
  ['the gateway imports the Koa HTTP kit', 'gateway/src/edge/planted.ts', '@ledger-api/http', 'no web framework'],
  ['the gateway imports the store', 'gateway/src/planted.ts', '@ledger-api/store', 'no store'],
  ['the gateway imports a database driver', 'gateway/src/planted.ts', 'mongodb', 'no database driver'],
  ['production code imports a test kit export', 'services/guardian/src/planted.ts', '@ledger-api/ledger/testing', 'never loads a test kit'],
  ['production code imports the test kit', 'libs/cache/src/planted.ts', '@ledger-api/test-kit', 'never loads a test kit'],
  ['production code imports a testing folder', 'gateway/src/planted.ts', './testing/gateway-harness', 'never loads a test kit'],
];

const ALLOWED: [what: string, filePath: string, module: string][] = [
  ['a service imports a lib', 'services/nft-base/src/planted.ts', '@ledger-api/http'],
  ['the gateway imports the framework-free HTTP parts', 'gateway/src/planted.ts', '@ledger-api/http-core'],
  ['a test imports a test kit', 'services/guardian/src/planted.test.ts', '@ledger-api/runtime/testing'],
  ['a test of the gateway imports the Koa HTTP kit', 'gateway/src/planted.test.ts', '@ledger-api/http'],
  ['a lib imports a lib below it', 'libs/http/src/planted.ts', '@ledger-api/store'],
];

// The planted files are not on disk, so the rules that need type information stay off for them (see promise-rules.test.ts).
const WITHOUT_TYPES = {
  languageOptions: { parserOptions: { projectService: false } },
  rules: { '@typescript-eslint/no-floating-promises': 'off', '@typescript-eslint/no-misused-promises': 'off' },
};

const importOf = (module: string) => `import * as planted from '${module}';\nexport const used = planted;\n`;

async function refusedImports(files: PlantedFile[]): Promise<string[][]> {
  const messages = await lintPlanted(files, WITHOUT_TYPES);
  return messages.map((found) => found.filter(({ ruleId }) => ruleId === 'no-restricted-imports').map(({ message }) => message));
}

describe('the import layering', () => {
  let refused: string[][];
  let allowed: string[][];

  beforeAll(async () => {
    const planted = [...REFUSED, ...ALLOWED].map(([, filePath, module]) => ({ filePath, code: importOf(module) }));
    const messages = await refusedImports(planted);
    refused = messages.slice(0, REFUSED.length);
    allowed = messages.slice(REFUSED.length);
  }, 60_000);

  it.each(REFUSED.map((entry, index) => [...entry, index] as const))('refuses it when %s', (_what, _file, _module, reason, index) => {
    expect(refused[index]).toHaveLength(1);
    expect(refused[index][0]).toContain(reason);
  });

  it.each(ALLOWED.map((entry, index) => [...entry, index] as const))('allows it when %s', (_what, _file, _module, index) => {
    expect(allowed[index]).toEqual([]);
  });
});
