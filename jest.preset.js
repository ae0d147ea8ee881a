// Shared jest settings: every workspace runs its TypeScript tests from source,
// resolving sibling @ledger-api/* packages to their src so tests never depend on a build.
const path = require('path');
const { readdirSync } = require('fs');

/** Every workspace under libs/, named @ledger-api/<folder>. */
const LIBS = readdirSync(path.join(__dirname, 'libs'), { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name);

module.exports = function jestConfig(packageDir, overrides = {}) {
  return {
    rootDir: packageDir,
    roots: ['<rootDir>/src'],
    testEnvironment: 'node',
    testMatch: ['**/*.test.ts'],
    transform: {
      '^.+\\.ts$': ['ts-jest', { tsconfig: path.join(packageDir, 'tsconfig.json') }],
    },
    moduleNameMapper: {
      // A lib's test kit is its `/testing` subpath export (package.json `exports`).
      [`^@ledger-api/(${LIBS.join('|')})/testing$`]: path.join(__dirname, 'libs/$1/src/testing'),
      [`^@ledger-api/(${LIBS.join('|')})$`]: path.join(__dirname, 'libs/$1/src'),
    },
    testTimeout: 30000,
    ...overrides,
  };
};
