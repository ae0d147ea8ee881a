import { lintPlanted, type PlantedFile } from './lint-planted';

/**
 * Each workspace imports only node's built-ins, its own files and the packages its package.json
 * declares (devDependencies only from tests and test kits), and the layering docs/design.md states holds
 * on top of that: `npm run lint` refuses a planted import where it must, whichever form the import
 * takes, and lets one pass where both allow it. Each planted file is linted as if it stood at its
 * path, with the project's own configuration.
 */
const importOf = (module: string) => `import * as planted from '${module}';\nexport const used = planted;\n`;
const typeImportOf = (module: string) => `import type * as planted from '${module}';\nexport type Used = typeof planted;\n`;
const reexportOf = (module: string) => `export * from '${module}';\n`;
const requireOf = (module: string) => `export function load(): unknown {\n  return require('${module}');\n}\n`;
const dynamicImportOf = (module: string) => `export const load = () => import('${module}');\n`;

const UNDECLARED = 'declares no such dependency';

const REFUSED: [what: string, filePath: string, code: string, reason: string][] = [
  ['a lib imports a service', 'libs/ledger/src/planted.ts', importOf('@ledger-api/nft-base'), 'never depends on a service'],
  ['a lib imports the gateway', 'libs/runtime/src/planted.ts', importOf('@ledger-api/gateway'), 'never depends on a service'],
  ['a test of a lib imports a service', 'libs/runtime/src/planted.test.ts', importOf('@ledger-api/guardian'), 'never depends on a service'],
  ['the store imports HTTP code', 'libs/store/src/planted.ts', importOf('@ledger-api/http-core'), 'nothing of HTTP'],
  ['the store imports Koa', 'libs/store/src/embedded/planted.ts', importOf('koa'), 'nothing of HTTP'],
  ['the store loads Express lazily', 'libs/store/src/planted.ts', dynamicImportOf('express'), 'nothing of HTTP'],
  ['the NFT read model imports node’s HTTP', 'libs/nft-read-model/src/planted.ts', importOf('node:http'), 'nothing of HTTP'],
  ['the NFT read model requires node’s HTTP', 'libs/nft-read-model/src/base/planted.ts', requireOf('https'), 'nothing of HTTP'],
  ['http-core imports Koa', 'libs/http-core/src/planted.ts', importOf('koa'), 'neither Koa nor the store'],
  ['http-core requires the store', 'libs/http-core/src/planted.ts', requireOf('@ledger-api/store'), 'neither Koa nor the store'],
  ['http-core imports a type of the Koa HTTP kit', 'libs/http-core/src/planted.ts', typeImportOf('@ledger-api/http'), 'neither Koa nor the store'],
  ['the gateway imports the services’ web framework', 'gateway/src/planted.ts', importOf('koa'), 'no web framework'],
  ['the gateway imports the Koa HTTP kit', 'gateway/src/edge/planted.ts', importOf('@ledger-api/http'), 'no web framework'],
  ['the gateway re-exports the store', 'gateway/src/planted.ts', reexportOf('@ledger-api/store'), 'no store'],
  ['the gateway loads a database driver lazily', 'gateway/src/planted.ts', dynamicImportOf('mongodb'), 'no database driver'],
  ['production code imports a test kit export', 'services/guardian/src/planted.ts', importOf('@ledger-api/ledger/testing'), 'never loads a test kit'],
  ['production code imports the test kit', 'libs/cache/src/planted.ts', importOf('@ledger-api/test-kit'), 'never loads a test kit'],
  ['production code imports a testing folder', 'gateway/src/planted.ts', importOf('./testing/gateway-harness'), 'never loads a test kit'],
  ['a lib imports a lib it does not declare', 'libs/cache/src/planted.ts', importOf('@ledger-api/config'), UNDECLARED],
  ['a lib requires a package it does not declare', 'libs/ledger/src/planted.ts', requireOf('lru-cache'), UNDECLARED],
  ['a service imports a package it does not declare', 'services/guardian/src/planted.ts', importOf('@ledger-api/nft-read-model'), UNDECLARED],
  ['production code imports a devDependency', 'services/nft-base/src/planted.ts', importOf('fast-check'), UNDECLARED],
  ['a test imports a package its workspace does not declare', 'libs/http-core/src/planted.test.ts', importOf('fast-check'), UNDECLARED],
  ['a script of a workspace requires what it does not declare', 'client/planted.cjs', "require('express');\n", UNDECLARED],
  ['a relative import reaches into another workspace', 'libs/http-core/src/planted.ts', importOf('../../store/src/index'), 'by its package name'],
];

const ALLOWED: [what: string, filePath: string, code: string][] = [
  ['a service imports a lib', 'services/nft-base/src/planted.ts', importOf('@ledger-api/http')],
  ['the gateway imports the framework-free HTTP parts', 'gateway/src/planted.ts', importOf('@ledger-api/http-core')],
  ['http-core imports node’s HTTP', 'libs/http-core/src/planted.ts', importOf('node:http')],
  ['a test imports a test kit', 'services/guardian/src/planted.test.ts', importOf('@ledger-api/runtime/testing')],
  ['a test of the gateway imports the Koa HTTP kit', 'gateway/src/planted.test.ts', importOf('@ledger-api/http')],
  ['a test imports a devDependency', 'services/nft-base/src/planted.test.ts', importOf('fast-check')],
  ['a test kit imports a devDependency', 'libs/http-core/src/testing/planted.ts', importOf('@ledger-api/test-kit')],
  ['a lib imports a lib below it', 'libs/http/src/planted.ts', importOf('@ledger-api/store')],
  ['the gateway imports a package it declares', 'gateway/src/planted.ts', importOf('http-proxy-middleware')],
  [
    'a jest configuration requires the root’s preset',
    'libs/cache/planted.config.js',
    "module.exports = require('../../jest.preset.js')(__dirname);\n",
  ],
  ['a lib requires a path inside a package it declares', 'libs/store/src/planted.ts', requireOf('mingo/util')],
  ['a lib requires its own file lazily', 'libs/store/src/planted.ts', requireOf('./create-store')],
  ['a lib loads a built-in lazily', 'libs/cache/src/planted.ts', dynamicImportOf('fs/promises')],
];

// The planted files are not on disk, so the rules that need type information stay off for them (see promise-rules.test.ts).
const WITHOUT_TYPES = {
  languageOptions: { parserOptions: { projectService: false } },
  rules: { '@typescript-eslint/no-floating-promises': 'off', '@typescript-eslint/no-misused-promises': 'off' },
};

const IMPORT_RULES = new Set(['n/no-restricted-import', 'n/no-restricted-require']);

async function refusedImports(files: PlantedFile[]): Promise<string[][]> {
  const messages = await lintPlanted(files, WITHOUT_TYPES);
  return messages.map((found) => found.filter(({ ruleId }) => ruleId !== null && IMPORT_RULES.has(ruleId)).map(({ message }) => message));
}

describe('the imports each workspace may make', () => {
  let refused: string[][];
  let allowed: string[][];

  beforeAll(async () => {
    const planted = [...REFUSED, ...ALLOWED].map(([, filePath, code]) => ({ filePath, code }));
    const messages = await refusedImports(planted);
    refused = messages.slice(0, REFUSED.length);
    allowed = messages.slice(REFUSED.length);
  }, 60_000);

  it.each(REFUSED.map((entry, index) => [...entry, index] as const))('refuses it when %s', (_what, _file, _code, reason, index) => {
    expect(refused[index]).toHaveLength(1);
    expect(refused[index][0]).toContain(reason);
  });

  it.each(ALLOWED.map((entry, index) => [...entry, index] as const))('allows it when %s', (_what, _file, _code, index) => {
    expect(allowed[index]).toEqual([]);
  });
});
