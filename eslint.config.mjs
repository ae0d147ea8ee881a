// Lint rules for every workspace: ESLint's and typescript-eslint's recommended
// sets; formatting is prettier's job, so its conflicting rules are off.
import js from '@eslint/js';
import prettier from 'eslint-config-prettier';
import { defineConfig } from 'eslint/config';
import globals from 'globals';
import tseslint from 'typescript-eslint';

// The layering of design.md, enforced: each group is a set of imports some code may not make.
const RESTRICTED = {
  services: {
    group: ['@ledger-api/guardian', '@ledger-api/nft-base', '@ledger-api/nft-exchange', '@ledger-api/gateway', '@ledger-api/gateway/*'],
    message: 'a lib never depends on a service or the gateway: what two of them share belongs in a lib',
  },
  http: {
    group: ['@ledger-api/http', '@ledger-api/http-core', 'koa', '@koa/*', 'express', 'http-proxy-middleware'],
    message: 'the store knows documents, filters and windows, nothing of HTTP',
  },
  serviceFramework: {
    group: [
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
    group: ['@ledger-api/*/testing', '@ledger-api/test-kit', '**/testing', '**/testing/*'],
    message: 'production code never loads a test kit',
  },
};

/** Test files and test kits, which may use test kits and dev-only packages. */
const TESTS = ['**/*.test.ts', '**/testing/**'];

const restrict = (files, ignores, groups) => ({
  files,
  ignores,
  rules: { 'no-restricted-imports': ['error', { patterns: groups.map((name) => RESTRICTED[name]) }] },
});

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
  // One block per kind of code (the rule's options do not add up across blocks).
  restrict(['libs/store/src/**/*.ts'], TESTS, ['services', 'http', 'testing']),
  restrict(['libs/*/src/**/*.ts'], [...TESTS, 'libs/store/**', 'libs/test-kit/**'], ['services', 'testing']),
  restrict(
    TESTS.map((glob) => `libs/${glob}`),
    [],
    ['services'],
  ),
  restrict(['gateway/src/**/*.ts'], TESTS, ['serviceFramework', 'testing']),
  restrict(['services/*/src/**/*.ts'], TESTS, ['testing']),
  {
    files: ['**/*.js', '**/*.cjs'],
    languageOptions: { sourceType: 'commonjs', globals: globals.node },
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
  { files: ['**/*.mjs'], languageOptions: { sourceType: 'module', globals: globals.node } },
  prettier,
);
