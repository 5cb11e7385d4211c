/** Native ESM + @swc/jest: TypeScript 7 has no ts-jest support. */
export default {
  testEnvironment: 'node',
  roots: ['<rootDir>/test'],
  testMatch: ['**/*.spec.ts'],
  extensionsToTreatAsEsm: ['.ts'],
  moduleNameMapper: {
    // the demo gateway imports the package by name, as any app would: serve it from src/
    '^nest-model-router$': '<rootDir>/src/index.ts',
    '^nest-model-router/(metrics|microservices)$': '<rootDir>/src/$1.ts',
    '^nest-model-router/([a-z-]+)$': '<rootDir>/src/$1/index.ts',
    // CommonJS that requires ESM-only Nest 12; see the file for why (Node < 24.9)
    '^@nestjs/throttler$': '<rootDir>/test/support/throttler-under-jest.ts',
    '^(\\.{1,2}/.*)\\.js$': '$1',
  },
  transform: {
    '^.+\\.ts$': [
      '@swc/jest',
      {
        jsc: {
          parser: { syntax: 'typescript', decorators: true },
          transform: {
            legacyDecorator: true,
            decoratorMetadata: true,
            useDefineForClassFields: false,
          },
          target: 'es2022',
        },
        module: { type: 'es6' },
      },
    ],
  },
  testTimeout: 20000,
  // Two workers on the 2-core CI machine (Jest's default would run every suite in one process),
  // each replaced once it holds more than 1 GB: suites load the SDKs, the clients and the word
  // vectors, and one process growing to 4 GB spends its time collecting garbage.
  maxWorkers: 2,
  workerIdleMemoryLimit: '1GB',
};
