import { defineConfig } from 'vitest/config';

// Two tiers: unit tests beside the code (*.test.ts) need nothing running; integration tests
// (*.int.test.ts) share one DynamoDB Local and one SQS stand-in, started once by the global setup
// and isolated per test by table prefix and queue name.
export default defineConfig({
  test: {
    reporters: ['default'],
    projects: [
      {
        test: {
          name: 'unit',
          include: ['{shared,functions,executor,local,infra,bench}/**/*.test.ts'],
          exclude: ['**/*.int.test.ts', 'node_modules/**'],
          testTimeout: 20_000,
        },
      },
      {
        test: {
          name: 'integration',
          include: ['{shared,functions,executor,local,infra,test}/**/*.int.test.ts'],
          exclude: ['node_modules/**'],
          globalSetup: ['test/global-setup.ts'],
          testTimeout: 120_000,
          hookTimeout: 120_000,
          fileParallelism: true,
          maxWorkers: 2,
        },
      },
    ],
  },
});
