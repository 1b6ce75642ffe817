/** Jest in ESM mode (the project is ESM; @middy/core is ESM-only). ts-jest only strips types here:
 *  `npm test` type-checks with tsc before Jest runs. */
export default {
  testEnvironment: 'node',
  roots: ['<rootDir>/test'],
  testMatch: ['**/*.test.ts'],
  extensionsToTreatAsEsm: ['.ts'],
  transform: { '^.+\\.ts$': ['ts-jest', { useESM: true, diagnostics: false }] },
  globalSetup: '<rootDir>/test/support/global-setup.ts',
  globalTeardown: '<rootDir>/test/support/global-teardown.ts',
  // Two cores: one worker per core keeps DynamoDB Local and the suites from starving each other.
  maxWorkers: 2,
  testTimeout: 30_000,
};
