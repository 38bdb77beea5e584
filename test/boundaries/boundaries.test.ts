import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CRUISED, cruiseBoundaries, describeViolation, repoRoot, type Violation } from './cruise.js';

// The import boundaries of .dependency-cruiser.cjs: @tickring/core imports only itself, the protocol, luxon
// and node (its tests add vitest, the doubles and test/); the adapters (aws, transport) take core through
// its model doors, never a use-case, and nothing of the application; the api and the doubles import core's
// doors and little else; nothing but the application (functions, local, infra, bench, test) imports
// functions/; the published packages import nothing of the scheduler (the client only openapi-fetch, the
// CLI only the client and its own npm packages), the web console only the client and its own npm packages
// (the scheduler takes from it only its headers and dist directory); every package is reached by its name
// and an exported door, never a path into packages/ or a name past its exports; no import cycle.

/** A dependency resolved under node_modules (the cruise of the fixtures reaches the repository's). */
const inNodeModules = (path: string) =>
  expect.stringMatching(new RegExp(`(^|/)node_modules/${path.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`));

describe('import boundaries', () => {
  // The whole repository: some 8 s of CPU, several times that in wall time on a busy machine.
  it('the repository keeps them', async () => {
    const { violations, result } = await cruiseBoundaries(repoRoot, CRUISED);

    // The rules are only as good as the graph: every relative import (all `.js`-suffixed, NodeNext)
    // resolved to a file, and each area was cruised.
    const unresolved = result.modules.flatMap((m) =>
      m.dependencies
        .filter((d) => d.couldNotResolve && d.module.startsWith('.'))
        .map((d) => `${m.source} → ${d.module}`),
    );
    expect(unresolved, 'relative imports dependency-cruiser could not resolve').toEqual([]);
    const sources = result.modules.map((m) => m.source);
    for (const file of [
      'packages/core/src/runs/run.ts',
      'packages/core/src/dispatch/trigger.ts',
      'packages/aws/src/dynamodb/index.ts',
      'packages/api/src/contract/index.ts',
      'packages/transport/src/index.ts',
      'packages/testing/src/index.ts',
      'functions/dispatcher/handler.ts',
      'functions/wiring/run-outcome-deps.ts',
      'packages/protocol/src/index.ts',
      'packages/executor/src/index.ts',
      'packages/client/src/index.ts',
      'packages/client/src/client.ts',
      'console/src/main.tsx',
      'local/console-assets.ts',
      'infra/constructs/web-console.ts',
    ]) {
      expect(sources, `${file} cruised`).toContain(file);
    }

    const report = violations.map(describeViolation).join('\n');
    expect(violations, `import boundaries broken:\n${report}\n`).toEqual([]);
  }, 120_000);

  it('catches each kind of bad import in the fixtures', async () => {
    const { violations } = await cruiseBoundaries(join(repoRoot, 'test/boundaries/fixtures'), [
      'packages',
      'functions',
      'local',
      'infra',
      'console',
    ]);
    const found = violations
      .map(({ rule, from, to }): Violation => ({ rule, from, to }))
      .sort((a, b) => `${a.rule} ${a.from} ${a.to}`.localeCompare(`${b.rule} ${b.from} ${b.to}`));

    expect(found).toEqual([
      // The adapters take core through its model doors, never a use-case (their tests may: ok.int.test.ts).
      {
        rule: 'adapters-core-through-model-doors',
        from: 'packages/aws/src/dynamodb/use-cases.ts',
        to: inNodeModules('@tickring/core/src/runs/use-cases.ts'),
      },
      {
        rule: 'adapters-core-through-model-doors',
        from: 'packages/transport/src/leaky.ts',
        to: inNodeModules('@tickring/core/src/executors/use-cases.ts'),
      },
      {
        rule: 'adapters-never-the-app',
        from: 'packages/aws/src/dynamodb/app.ts',
        to: inNodeModules('@tickring/api/src/http/index.ts'),
      },
      {
        rule: 'adapters-never-the-app',
        from: 'packages/aws/src/dynamodb/app.ts',
        to: 'functions/handler/deps.ts',
      },
      { rule: 'adapters-never-the-app', from: 'packages/transport/src/leaky.ts', to: 'local/l.ts' },
      {
        rule: 'adapters-test-helpers-only-in-tests',
        from: 'packages/aws/src/dynamodb/test-helpers.ts',
        to: inNodeModules('@tickring/testing/src/index.ts'),
      },
      {
        rule: 'adapters-test-helpers-only-in-tests',
        from: 'packages/aws/src/dynamodb/test-helpers.ts',
        to: inNodeModules('vitest/'),
      },
      {
        rule: 'adapters-test-helpers-only-in-tests',
        from: 'packages/aws/src/dynamodb/test-helpers.ts',
        to: 'test/helper.ts',
      },
      // The api: core's doors of both kinds, the protocol, TypeBox, Lambda's types (contract/ok.ts).
      {
        rule: 'api-imports-own-core-protocol-typebox-lambda',
        from: 'packages/api/src/http/adapter.ts',
        to: inNodeModules('@tickring/aws/src/dynamodb/index.ts'),
      },
      {
        rule: 'api-imports-own-core-protocol-typebox-lambda',
        from: 'packages/api/src/http/adapter.ts',
        to: 'functions/handler/deps.ts',
      },
      {
        rule: 'api-imports-own-core-protocol-typebox-lambda',
        from: 'packages/api/src/http/adapter.ts',
        to: 'local/l.ts',
      },
      {
        rule: 'api-tests-add-vitest-openapi-parser-test-helpers',
        from: 'packages/api/src/contract/served.test.ts',
        to: 'functions/handler/deps.ts',
      },
      // A path under the client's name (not in its exports) stays unresolved, as written.
      {
        rule: 'cli-imports-own-packages-node',
        from: 'packages/cli/src/reach.ts',
        to: '@tickring/client/dist/client.js',
      },
      {
        rule: 'cli-imports-own-packages-node',
        from: 'packages/cli/src/reach.ts',
        to: 'packages/client/src/own.ts',
      },
      {
        rule: 'cli-imports-own-packages-node',
        from: 'packages/cli/src/scheduler.ts',
        to: inNodeModules('@tickring/core/src/jobs/index.ts'),
      },
      {
        rule: 'cli-imports-own-packages-node',
        from: 'packages/cli/src/scheduler.ts',
        to: inNodeModules('luxon/'),
      },
      {
        rule: 'client-imports-own-openapi-fetch-node',
        from: 'packages/client/src/leaky.ts',
        to: inNodeModules('@tickring/core/src/runs/index.ts'),
      },
      {
        rule: 'client-tests-import-own-vitest-test-tools',
        from: 'packages/client/src/leaky.test.ts',
        to: inNodeModules('@tickring/aws/src/dynamodb/index.ts'),
      },
      {
        rule: 'client-through-its-door',
        from: 'packages/cli/src/reach.ts',
        to: '@tickring/client/dist/client.js',
      },
      {
        rule: 'client-through-its-door',
        from: 'packages/cli/src/reach.ts',
        to: 'packages/client/src/own.ts',
      },
      // The console: no package but the client (by name) and its own npm packages, no node builtin.
      {
        rule: 'console-imports-own-client-npm',
        from: 'console/src/scheduler.ts',
        to: inNodeModules('@tickring/core/src/runs/index.ts'),
      },
      {
        rule: 'console-imports-own-client-npm',
        from: 'console/src/scheduler.ts',
        to: inNodeModules('@tickring/protocol/'),
      },
      { rule: 'console-imports-own-client-npm', from: 'console/src/stray.ts', to: inNodeModules('luxon/') },
      { rule: 'console-imports-own-client-npm', from: 'console/src/stray.ts', to: 'events' },
      // Its tests may add vitest, never the scheduler.
      { rule: 'console-never-the-scheduler', from: 'console/src/leaky.test.ts', to: 'local/l.ts' },
      {
        rule: 'console-never-the-scheduler',
        from: 'console/src/scheduler.ts',
        to: inNodeModules('@tickring/core/src/runs/index.ts'),
      },
      {
        rule: 'console-never-the-scheduler',
        from: 'console/src/scheduler.ts',
        to: inNodeModules('@tickring/protocol/'),
      },
      // Core: its own files by relative path, the protocol, luxon, node (runs/ok.ts); no adapter by name
      // or path, no AWS, no application, no HTTP kit or transport, not itself by name.
      {
        rule: 'core-imports-own-protocol-luxon-node',
        from: 'packages/core/src/runs/adapter.ts',
        to: inNodeModules('@tickring/aws/src/dynamodb/index.ts'),
      },
      {
        rule: 'core-imports-own-protocol-luxon-node',
        from: 'packages/core/src/runs/adapter.ts',
        to: 'packages/aws/src/dynamodb/run-store.ts',
      },
      {
        rule: 'core-imports-own-protocol-luxon-node',
        from: 'packages/core/src/runs/app.ts',
        to: 'functions/handler/deps.ts',
      },
      {
        rule: 'core-imports-own-protocol-luxon-node',
        from: 'packages/core/src/runs/app.ts',
        to: 'local/l.ts',
      },
      {
        rule: 'core-imports-own-protocol-luxon-node',
        from: 'packages/core/src/runs/aws.ts',
        to: inNodeModules('@aws-lambda-powertools/logger/'),
      },
      {
        rule: 'core-imports-own-protocol-luxon-node',
        from: 'packages/core/src/runs/aws.ts',
        to: inNodeModules('@aws-sdk/client-dynamodb/'),
      },
      {
        rule: 'core-imports-own-protocol-luxon-node',
        from: 'packages/core/src/runs/aws.ts',
        to: inNodeModules('@types/aws-lambda/'),
      },
      {
        rule: 'core-imports-own-protocol-luxon-node',
        from: 'packages/core/src/runs/by-name.ts',
        to: inNodeModules('@tickring/core/src/runs/index.ts'),
      },
      {
        rule: 'core-imports-own-protocol-luxon-node',
        from: 'packages/core/src/runs/http.ts',
        to: inNodeModules('@tickring/api/src/http/index.ts'),
      },
      {
        rule: 'core-imports-own-protocol-luxon-node',
        from: 'packages/core/src/runs/http.ts',
        to: inNodeModules('@tickring/transport/src/index.ts'),
      },
      // Core's tests may add vitest, the doubles and test/ (runs/ok.test.ts), not an adapter.
      {
        rule: 'core-tests-add-vitest-testing-test-helpers',
        from: 'packages/core/src/runs/leaky.test.ts',
        to: inNodeModules('@tickring/aws/src/dynamodb/index.ts'),
      },
      {
        rule: 'executor-imports-own-protocol-node',
        from: 'packages/executor/src/x.ts',
        to: inNodeModules('@tickring/core/src/runs/index.ts'),
      },
      {
        rule: 'executor-tests-import-own-protocol-node-vitest',
        from: 'packages/executor/test-support/leaky.ts',
        to: inNodeModules('@tickring/core/src/runs/index.ts'),
      },
      // functions/ is for the application (local/functions-ok.ts), never a package.
      {
        rule: 'functions-only-from-the-app',
        from: 'packages/api/src/contract/served.test.ts',
        to: 'functions/handler/deps.ts',
      },
      {
        rule: 'functions-only-from-the-app',
        from: 'packages/api/src/http/adapter.ts',
        to: 'functions/handler/deps.ts',
      },
      {
        rule: 'functions-only-from-the-app',
        from: 'packages/aws/src/dynamodb/app.ts',
        to: 'functions/handler/deps.ts',
      },
      {
        rule: 'functions-only-from-the-app',
        from: 'packages/core/src/runs/app.ts',
        to: 'functions/handler/deps.ts',
      },
      {
        rule: 'functions-only-from-the-app',
        from: 'packages/testing/src/adapter.ts',
        to: 'functions/handler/deps.ts',
      },
      // A cycle is reported once, at one of its imports.
      {
        rule: 'no-circular',
        from: expect.stringMatching(/^packages\/core\/src\/common\/[ab]\.ts$/),
        to: expect.stringMatching(/^packages\/core\/src\/common\/[ab]\.ts$/),
      },
      // A name past the exports stays unresolved, as written.
      {
        rule: 'package-names-within-their-exports',
        from: 'functions/handler/past-exports.ts',
        to: '@tickring/aws/dynamodb/run-store.js',
      },
      {
        rule: 'package-names-within-their-exports',
        from: 'functions/handler/past-exports.ts',
        to: '@tickring/core/src/dispatch/trigger.js',
      },
      {
        rule: 'package-names-within-their-exports',
        from: 'packages/aws/src/dynamodb/past-exports.ts',
        to: '@tickring/core/src/runs/run.js',
      },
      {
        rule: 'package-names-within-their-exports',
        from: 'packages/cli/src/reach.ts',
        to: '@tickring/client/dist/client.js',
      },
      {
        rule: 'packages-through-each-others-doors',
        from: 'packages/aws/src/dynamodb/past-exports.ts',
        to: 'packages/core/src/runs/run.ts',
      },
      {
        rule: 'packages-through-each-others-doors',
        from: 'packages/cli/src/reach.ts',
        to: 'packages/client/src/own.ts',
      },
      {
        rule: 'packages-through-each-others-doors',
        from: 'packages/core/src/runs/adapter.ts',
        to: 'packages/aws/src/dynamodb/run-store.ts',
      },
      // dependency-cruiser names a builtin without its node: prefix.
      { rule: 'protocol-imports-nothing', from: 'packages/protocol/src/p.ts', to: 'events' },
      // The protocol's test helpers may add vitest, never the scheduler.
      {
        rule: 'protocol-tests-import-own-node-vitest',
        from: 'packages/protocol/test-support/leaky.ts',
        to: inNodeModules('@tickring/core/src/runs/index.ts'),
      },
      // The scheduler takes only the console's headers and dist directory (local/console-ok.ts).
      {
        rule: 'scheduler-console-through-its-doors',
        from: 'infra/console-reach.ts',
        to: inNodeModules('@tickring/console/package.json'),
      },
      {
        rule: 'scheduler-console-through-its-doors',
        from: 'infra/console-reach.ts',
        to: 'console/src/own.ts',
      },
      {
        rule: 'scheduler-test-support-only-in-tests',
        from: 'local/l.ts',
        to: 'packages/executor/test-support/fake.ts',
      },
      {
        rule: 'scheduler-through-package-doors',
        from: 'functions/handler/h.ts',
        to: 'packages/core/src/runs/run.ts',
      },
      {
        rule: 'scheduler-through-package-doors',
        from: 'functions/handler/h.ts',
        to: 'packages/executor/src/x.ts',
      },
      // The doubles: core's doors of both kinds, the protocol, vitest (testing/src/ok.ts).
      {
        rule: 'testing-imports-own-core-protocol-vitest',
        from: 'packages/testing/src/adapter.ts',
        to: inNodeModules('@tickring/aws/src/dynamodb/index.ts'),
      },
      {
        rule: 'testing-imports-own-core-protocol-vitest',
        from: 'packages/testing/src/adapter.ts',
        to: 'functions/handler/deps.ts',
      },
    ]);
  });
});
