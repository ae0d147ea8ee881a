// Lint rules for every workspace: ESLint's and typescript-eslint's recommended
// sets; formatting is prettier's job, so its conflicting rules are off.
import js from '@eslint/js';
import { globSync, readFileSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { dirname, join } from 'node:path';
import prettier from 'eslint-config-prettier';
import { defineConfig } from 'eslint/config';
import n from 'eslint-plugin-n';
import globals from 'globals';
import tseslint from 'typescript-eslint';

// Which packages each workspace's code may import, checked on every import form: import and
// export declarations, type-only ones too, `import()` and `require()` (eslint-plugin-n's rules;
// ESLint's own no-restricted-imports sees neither of the last two).
//
// The allow-list: node's built-ins, the workspace's own files and the packages its package.json
// declares; devDependencies only in tests and test kits. On top of it, the layering of docs/design.md,
// which holds whatever a package.json declares: each group is a set of imports some code may not make.
const ROOT = import.meta.dirname;
const manifestOf = (dir) => JSON.parse(readFileSync(join(ROOT, dir, 'package.json'), 'utf8'));
const WORKSPACES = manifestOf('.').workspaces.flatMap((pattern) => globSync(`${pattern}/package.json`, { cwd: ROOT }).map(dirname));

const NODE_HTTP = ['http', 'https', 'http2'].flatMap((name) => [name, `node:${name}`]);

const LAYERING = {
  services: {
    name: ['@ledger-api/guardian', '@ledger-api/nft-base', '@ledger-api/nft-exchange', '@ledger-api/gateway'],
    message: 'a lib never depends on a service or the gateway: what two of them share belongs in a lib',
  },
  http: {
    name: ['@ledger-api/http', '@ledger-api/http-core', 'koa', '@koa/*', 'express', 'http-proxy-middleware', ...NODE_HTTP],
    message: 'the store and the NFT read model know documents, filters and windows, nothing of HTTP',
  },
  koaOrStore: {
    name: ['@ledger-api/http', '@ledger-api/store', 'koa', '@koa/*'],
    message: 'http-core is the HTTP the gateway shares with the services: it imports neither Koa nor the store',
  },
  serviceFramework: {
    name: [
      '@ledger-api/http',
      '@ledger-api/store',
      'koa',
      '@koa/*',
      'mongodb',
      'mingo',
      '@ledger-api/guardian',
      '@ledger-api/nft-base',
      '@ledger-api/nft-exchange',
    ],
    message: 'the gateway depends on no web framework of the services, no store and no database driver: share through @ledger-api/http-core',
  },
  testing: {
    name: ['@ledger-api/*/testing', '@ledger-api/test-kit', '**/testing', '**/testing/*'],
    message: 'production code never loads a test kit',
  },
};

/** The layering groups over each workspace's production code, beyond `testing`, which holds for all of it. */
const LAYERS = {
  'libs/store': ['services', 'http'],
  'libs/http-core': ['services', 'koaOrStore'],
  'libs/nft-read-model': ['services', 'http'],
  gateway: ['serviceFramework'],
  // The OpenAPI writer reads every service's routes; the other tools are built on the libs alone.
  'tools/openapi': [],
};
const layersOf = (dir) => LAYERS[dir] ?? (dir.startsWith('libs/') || dir.startsWith('tools/') ? ['services'] : []);

/** Test files and test kits, which may use test kits and dev-only packages. */
const TESTS = ['**/*.test.ts', '**/testing/**'];

// A package name also stands for every path under it.
const withSubpaths = (names) => names.flatMap((name) => [name, `${name}/**`]);
const layering = (group) => ({ ...LAYERING[group], name: withSubpaths(LAYERING[group].name) });

/** Any import but of a built-in, a file of the workspace's own or one of `packages`. */
const undeclared = (dir, packages) => ({
  name: [
    '**',
    ...withSubpaths([...builtinModules, ...builtinModules.map((name) => `node:${name}`), ...packages, '.', '..']).map((name) => `!${name}`),
  ],
  message: `${dir}/package.json declares no such dependency (devDependencies serve only tests and test kits)`,
});

/** A relative import that reaches into another workspace: matched on the file it resolves to. */
const intoOtherWorkspaces = (dir) => ({
  name: WORKSPACES.filter((other) => other !== dir).map((other) => `${join(ROOT, other)}/**`),
  message: 'another workspace is imported by its package name, which the package.json declares',
});

const importRules = (restrictions) => ({
  'n/no-restricted-import': ['error', restrictions],
  'n/no-restricted-require': ['error', restrictions],
});

/** Workspaces that are test code through and through: the test kit, and the cross-service tests and benchmarks. */
const TEST_WORKSPACES = ['libs/test-kit', 'test'];

// Two blocks per workspace, its production code and its tests (the rules' options do not add up across blocks).
const importsOf = (dir) => {
  const manifest = manifestOf(dir);
  const production = [manifest.name, ...Object.keys(manifest.dependencies ?? {})];
  const files = [`${dir}/**/*.{ts,js,mjs,cjs}`];
  const testRules = importRules([
    ...(dir.startsWith('libs/') ? [layering('services')] : []),
    undeclared(dir, [...production, ...Object.keys(manifest.devDependencies ?? {})]),
    intoOtherWorkspaces(dir),
  ]);
  if (TEST_WORKSPACES.includes(dir)) return [{ files, rules: testRules }];
  const tests = TESTS.map((glob) => `${dir}/${glob}`);
  const productionLayers = [...layersOf(dir), 'testing'].map(layering);
  return [
    { files, ignores: tests, rules: importRules([...productionLayers, undeclared(dir, production), intoOtherWorkspaces(dir)]) },
    { files: tests, rules: testRules },
  ];
};

// Sizes: a production file holds at most 300 lines, a function at most 40; a test or a test kit may be
// longer, and generated code is not written by hand. size-exceptions.json lists the files exempted, each
// with its reason (a declarative table, or a function another piece of work is reshaping).
const SIZE_EXCEPTIONS = Object.keys(JSON.parse(readFileSync(join(ROOT, 'size-exceptions.json'), 'utf8')));
const SIZE_LIMITS = {
  files: ['libs/*/src/**/*.ts', 'services/*/src/**/*.ts', 'gateway/src/**/*.ts', 'client/src/**/*.ts', 'tools/*/src/**/*.ts'],
  ignores: [...TESTS, 'libs/test-kit/**', '**/generated/**', ...SIZE_EXCEPTIONS],
  rules: { 'max-lines': ['error', { max: 300 }], 'max-lines-per-function': ['error', { max: 40 }] },
};

export default defineConfig(
  { ignores: ['**/dist/', '**/node_modules/', '**/coverage/', '.data/', '.runnable/', 'bench-results/', '**/.fuzz-results/', '**/.turbo/'] },
  js.configs.recommended,
  tseslint.configs.recommended,
  {
    files: ['**/*.ts'],
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    rules: {
      // A promise nobody awaits loses its rejection; one handed where a callback's result is ignored does too.
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': 'error',
      // A leading underscore marks what a signature or a destructuring must name but does not use.
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', destructuredArrayIgnorePattern: '^_', ignoreRestSiblings: true },
      ],
    },
  },
  {
    plugins: { n },
    // Bare imports resolve by the name they were made under, so only a relative path resolves into another workspace.
    settings: { n: { resolverConfig: { symlinks: false }, tryExtensions: ['.ts', '.d.ts', '.js', '.json'] } },
    // TypeScript knows Node's globals through @types/node; ESLint must know `require` too to see its calls.
    languageOptions: { globals: { require: 'readonly' } },
  },
  WORKSPACES.flatMap(importsOf),
  {
    files: ['**/*.js', '**/*.cjs'],
    languageOptions: { sourceType: 'commonjs', globals: globals.node },
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
  { files: ['**/*.mjs'], languageOptions: { sourceType: 'module', globals: globals.node } },
  SIZE_LIMITS,
  prettier,
);
