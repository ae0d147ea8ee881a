// Shared jest settings: every workspace runs its TypeScript tests from source,
// resolving sibling @ledger-api/* packages to their src so tests never depend on a build.
const path = require('path');

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
      '^@ledger-api/(ledger)/testing$': path.join(__dirname, 'libs/$1/src/testing'),
      '^@ledger-api/(config|observability|http|store|cache|ledger|runtime|nft-model)$': path.join(__dirname, 'libs/$1/src'),
    },
    testTimeout: 30000,
    ...overrides,
  };
};
