import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CRUISED, cruiseBoundaries, describeViolation, repoRoot, type Violation } from './cruise.js';

// The import boundaries of .dependency-cruiser.cjs: the packages import nothing from the scheduler (the
// client only openapi-fetch, the CLI only the client and its own npm packages), the web console only the
// client and its own npm packages (the scheduler takes from it only its headers and dist directory), the
// domain, ports and use-cases nothing from AWS or the adapters, the config no adapter or AWS SDK, the
// scheduler and the other packages the packages only by name, and nothing imports itself round a cycle.

describe('import boundaries', () => {
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
      'shared/domain/run.ts',
      'shared/use-cases/dispatch-fire.ts',
      'functions/dispatcher/handler.ts',
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
  });

  it('catches each kind of bad import in the fixtures', async () => {
    const { violations } = await cruiseBoundaries(join(repoRoot, 'test/boundaries/fixtures'), [
      'packages',
      'shared',
      'functions',
      'local',
      'infra',
      'console',
    ]);
    const found = violations
      .map(({ rule, from, to }): Violation => ({ rule, from, to }))
      .sort((a, b) => `${a.rule} ${a.from} ${a.to}`.localeCompare(`${b.rule} ${b.from} ${b.to}`));

    expect(found).toEqual([
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
        to: expect.stringMatching(/(^|\/)node_modules\/luxon\//),
      },
      {
        rule: 'cli-imports-own-packages-node',
        from: 'packages/cli/src/scheduler.ts',
        to: 'shared/domain/y.ts',
      },
      {
        rule: 'client-imports-own-openapi-fetch-node',
        from: 'packages/client/src/leaky.ts',
        to: 'shared/domain/y.ts',
      },
      {
        rule: 'client-tests-import-own-vitest-test-tools',
        from: 'packages/client/src/leaky.test.ts',
        to: 'shared/adapters/dynamo-store.ts',
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
      {
        rule: 'config-no-adapters-or-aws-sdk',
        from: 'shared/config/c.ts',
        to: 'shared/adapters/dynamo-store.ts',
      },
      // The console: no package but the client (by name) and its own npm packages, no node builtin.
      {
        rule: 'console-imports-own-client-npm',
        from: 'console/src/scheduler.ts',
        to: expect.stringMatching(/(^|\/)node_modules\/@tickring\/protocol\//),
      },
      {
        rule: 'console-imports-own-client-npm',
        from: 'console/src/scheduler.ts',
        to: 'shared/domain/y.ts',
      },
      {
        rule: 'console-imports-own-client-npm',
        from: 'console/src/stray.ts',
        to: expect.stringMatching(/(^|\/)node_modules\/luxon\//),
      },
      { rule: 'console-imports-own-client-npm', from: 'console/src/stray.ts', to: 'events' },
      // Its tests may add vitest, never the scheduler.
      { rule: 'console-never-the-scheduler', from: 'console/src/leaky.test.ts', to: 'local/l.ts' },
      {
        rule: 'console-never-the-scheduler',
        from: 'console/src/scheduler.ts',
        to: expect.stringMatching(/(^|\/)node_modules\/@tickring\/protocol\//),
      },
      { rule: 'console-never-the-scheduler', from: 'console/src/scheduler.ts', to: 'shared/domain/y.ts' },
      { rule: 'core-no-adapters', from: 'shared/use-cases/u.ts', to: 'shared/adapters/dynamo-store.ts' },
      {
        rule: 'core-no-aws',
        from: 'shared/domain/z.ts',
        to: expect.stringMatching(/(^|\/)node_modules\/@aws-sdk\/client-dynamodb\//),
      },
      {
        rule: 'core-no-aws',
        from: 'shared/ports/lambda-port.ts',
        to: expect.stringMatching(/(^|\/)node_modules\/@types\/aws-lambda\//),
      },
      {
        rule: 'executor-imports-own-protocol-node',
        from: 'packages/executor/src/x.ts',
        to: 'shared/domain/y.ts',
      },
      {
        rule: 'executor-tests-import-own-protocol-node-vitest',
        from: 'packages/executor/test-support/leaky.ts',
        to: 'shared/domain/y.ts',
      },
      // A cycle is reported once, at one of its imports.
      {
        rule: 'no-circular',
        from: expect.stringMatching(/^shared\/util\/[ab]\.ts$/),
        to: expect.stringMatching(/^shared\/util\/[ab]\.ts$/),
      },
      // dependency-cruiser names a builtin without its node: prefix.
      { rule: 'protocol-imports-nothing', from: 'packages/protocol/src/p.ts', to: 'events' },
      // The scheduler takes only the console's headers and dist directory (local/console-ok.ts).
      {
        rule: 'scheduler-console-through-its-doors',
        from: 'infra/console-reach.ts',
        to: expect.stringMatching(/(^|\/)node_modules\/@tickring\/console\/package\.json$/),
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
        to: 'packages/executor/src/x.ts',
      },
    ]);
  });
});
