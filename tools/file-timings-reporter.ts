import { mkdirSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import type { Reporter, TestModule, Vitest } from 'vitest/node';

/** One test file's times, in milliseconds, as vitest measured them. */
export interface FileTiming {
  /** Relative to the project root. */
  readonly file: string;
  readonly project: string;
  readonly state: string;
  /** Importing the file (its imports and suite callbacks). */
  readonly importMs: number;
  /** Its tests and hooks (beforeAll included). */
  readonly runMs: number;
  /** Environment, harness, setup files, import and run together. */
  readonly totalMs: number;
  readonly tests: number;
}

export interface FileTimingsReport {
  readonly startedAt: string;
  readonly files: readonly FileTiming[];
}

export const DEFAULT_FILE_TIMINGS_PATH = 'test-output/vitest-file-timings.json';

/**
 * Writes each test file's durations after a run. vitest's JSON reporter times a file by its tests alone
 * (first test start to last test end), which leaves out its import and its beforeAll: a file that
 * synthesizes a stack or starts a stand-in in beforeAll looks fast there. These are vitest's own
 * per-file measurements (TestModule.diagnostic()), hooks and import included.
 */
export default class FileTimingsReporter implements Reporter {
  private root = process.cwd();
  private startedAt = new Date();
  private readonly outputFile: string;

  constructor(options: { outputFile?: string } = {}) {
    this.outputFile = options.outputFile ?? DEFAULT_FILE_TIMINGS_PATH;
  }

  onInit(vitest: Vitest): void {
    this.root = vitest.config.root;
    this.startedAt = new Date();
  }

  onTestRunEnd(testModules: ReadonlyArray<TestModule>): void {
    const files = testModules.map((module): FileTiming => {
      const d = module.diagnostic();
      return {
        file: path.relative(this.root, module.moduleId),
        project: module.project.name,
        state: module.state(),
        importMs: Math.round(d.collectDuration),
        runMs: Math.round(d.duration),
        totalMs: Math.round(
          d.environmentSetupDuration + d.prepareDuration + d.setupDuration + d.collectDuration + d.duration,
        ),
        tests: [...module.children.allTests()].length,
      };
    });
    const report: FileTimingsReport = { startedAt: this.startedAt.toISOString(), files };
    const target = path.resolve(this.root, this.outputFile);
    mkdirSync(path.dirname(target), { recursive: true });
    writeFileSync(target, `${JSON.stringify(report, null, 2)}\n`);
  }
}
