import { defineConfig } from 'vitest/config';
import DurationSequencer from './tools/duration-sequencer.js';

/**
 * The fault files that measure lateness and order under every-second schedules (stacks killed, paused,
 * run in pairs), and the lost-run bound: they run after the integration tests, not beside them (a
 * neighbour's browser or stack start on the 2 cores made their fires seconds late).
 */
const LATENESS_FAULTS = [
  'test/faults/kill-restart.int.test.ts',
  'test/faults/pause.int.test.ts',
  'test/faults/two-stacks.int.test.ts',
  'test/faults/workflow-kill-restart.int.test.ts',
  'test/faults/lost-run.int.test.ts',
];

/** Workers of the integration group, on 2 cores: its files mostly wait (schedules, stacks, a browser). */
const INTEGRATION_WORKERS = 5;

/**
 * Workers of the second group: every lateness fault file at once (five, each a stack at about a
 * quarter of a core) and the unit files beside them in the rest, at the lowest CPU priority
 * (test/background-priority.ts) so that they take only what the faults leave.
 */
const FAULTS_AND_UNIT_WORKERS = 6;

// Three tiers: unit tests beside the code (*.test.ts) need nothing running; integration tests
// (*.int.test.ts) share one DynamoDB Local and one SQS stand-in, started once by the global setup and
// isolated per test by table prefix and queue name; they run first, among themselves. Then the
// fault-injection files that measure lateness, with the unit files beside them at nice 19.
export default defineConfig({
  test: {
    // Beside the console output, two reports of the run in test-output/ (gitignored): vitest's JSON
    // report (every test, its state and duration) and each file's time with its import and hooks, which
    // the JSON report leaves out (tools/file-timings-reporter.ts). `npm run test:timings` prints the
    // slowest files and tests from them.
    reporters: [
      'default',
      ['json', { outputFile: 'test-output/vitest.json' }],
      ['./tools/file-timings-reporter.ts', { outputFile: 'test-output/vitest-file-timings.json' }],
    ],
    // Longest files first, from the committed durations (test/file-durations.json): a fresh clone
    // has no vitest cache to order by.
    sequence: { sequencer: DurationSequencer },
    projects: [
      {
        test: {
          name: 'unit',
          include: [
            '{functions,local,infra,bench,tools}/**/*.test.ts',
            'packages/*/src/**/*.test.ts',
            'console/src/**/*.test.ts',
            'test/boundaries/*.test.ts',
          ],
          exclude: ['**/*.int.test.ts', '**/node_modules/**', 'test/boundaries/fixtures/**'],
          // At nice 19 beside the fault stacks a CDK synthesis (infra/test) can take over 20 s.
          testTimeout: 60_000,
          // One module graph per worker, not one per file: the files import the same packages (the
          // AWS SDK, CDK), which re-imported per file cost more than the tests. Measured on the 2 cores, two workers, the
          // machine equally busy: 376 s (251 s of CPU) isolated, 89 s (84 s) not; one isolated worker
          // took 414 s. Safe while no unit test mocks a module or leaves a global changed.
          isolate: false,
          // Beside the lateness faults, after the integration files: at nice 19 they fill what the
          // faults' stacks leave of the 2 cores without making their fires late (vitest wants one
          // worker count per group).
          setupFiles: ['test/background-priority.ts'],
          maxWorkers: FAULTS_AND_UNIT_WORKERS,
          sequence: { groupOrder: 2 },
        },
      },
      {
        test: {
          name: 'integration',
          // The fault files that measure no lateness (torn writes, concurrent edits, repeated callbacks
          // and deliveries) run here, side by side with the rest.
          include: ['{functions,local,infra,test,bench}/**/*.int.test.ts', 'packages/*/src/**/*.int.test.ts'],
          exclude: [
            '**/node_modules/**',
            ...LATENESS_FAULTS,
            'test/faults/dynamodb/**',
            'test/boundaries/fixtures/**',
          ],
          globalSetup: ['test/global-setup.ts'],
          testTimeout: 120_000,
          hookTimeout: 120_000,
          // One module graph per worker, as in the unit project: measured on the whole tier, the
          // machine equally loaded, 630 s of CPU isolated and 510 s not (import time 325 s → 98 s).
          // Safe while no integration test mocks a module or leaves a global changed.
          isolate: false,
          fileParallelism: true,
          // These files mostly wait (schedules, stacks starting, a browser); measured 8 m 45 s for all
          // of npm test with three workers, 9 m 35 s with two, their timing margins unchanged; with four
          // shared with the unit files, 497 s on a fresh clone; first and alone with five, the whole of
          // npm test took 294 s (2026-11-28).
          maxWorkers: INTEGRATION_WORKERS,
          sequence: { groupOrder: 1 },
        },
      },
      {
        test: {
          // Faults injected into whole stacks (kill -9, SIGSTOP, two stacks): they measure lateness
          // and order, so they run after the integration tests, not beside them on the 2 cores.
          name: 'faults',
          include: [...LATENESS_FAULTS],
          // No shared stand-ins: its stacks are SQLite ones or bring their own DynamoDB Local. (vitest
          // runs every project's global setup before the first test: a second JVM started up front
          // and idling through the whole run.)
          testTimeout: 300_000,
          hookTimeout: 120_000,
          // Side by side, among themselves: a stack on the embedded engine with 20 every-second jobs
          // and its executor use about a quarter of a core (fault (b): 10.7 s of CPU in 38 s, vitest
          // and the stack's start included), so all five at once leave the lateness margins whole;
          // the unit files beside them run at nice 19. (Their DynamoDB Local variants, each with its
          // JVM, run one at a time.)
          fileParallelism: true,
          maxWorkers: FAULTS_AND_UNIT_WORKERS,
          sequence: { groupOrder: 2 },
        },
      },
      {
        test: {
          // The lateness faults on the AWS adapters (each stack brings its own DynamoDB Local and SQS
          // stand-in): not part of `npm test`, which tests them on the embedded engine, npm start's
          // default; `npm run test:faults:dynamodb` runs them (not CI yet: a known flake, see the README).
          name: 'faults-dynamodb',
          include: ['test/faults/dynamodb/*.int.test.ts'],
          testTimeout: 300_000,
          hookTimeout: 120_000,
          fileParallelism: false,
          sequence: { groupOrder: 3 },
        },
      },
    ],
  },
});
