import { existsSync, readFileSync } from 'node:fs';
import * as path from 'node:path';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/**
 * The committed record of how long each test file took (seconds, keyed `project:path`), written by
 * `npm run test:timings -- --save` after a whole run. A file missing from it (a new one) counts as
 * the longest: it starts early rather than trailing behind everything.
 */
export const FILE_DURATIONS_PATH = 'test/file-durations.json';

export type FileDurations = Readonly<Record<string, number>>;

export function fileDurationKey(project: string, root: string, file: string): string {
  return `${project}:${path.relative(root, file).split(path.sep).join('/')}`;
}

function readDurations(root: string): FileDurations {
  const file = path.join(root, FILE_DURATIONS_PATH);
  return existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as FileDurations) : {};
}

/**
 * Starts the longest files first, from the committed durations. vitest's own order uses a cache
 * under node_modules that a fresh clone (CI) does not have; it then falls back to the largest file
 * first, and a short file with long waits (an every-second end-to-end run) started last and kept two
 * workers idle behind it for over a minute. With files run side by side, longest first is what keeps
 * the tail short.
 *
 * Within a group, one project's files stay together, the project of the longest files on average
 * first (a file without a recorded duration left out of the average): the lateness faults (a few
 * files of a minute) all start at once at the head of their group, none of them queued behind a
 * unit file (hundreds, of about a second) that happens to be longer, and the unit files fill the
 * workers the faults leave.
 */
export default class DurationSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const root = this.ctx.config.root;
    const durations = readDurations(root);
    const secondsOf = (spec: TestSpecification) =>
      durations[fileDurationKey(spec.project.name, root, spec.moduleId)] ?? Number.POSITIVE_INFINITY;
    const recorded = new Map<string, number[]>();
    for (const spec of files) {
      const seconds = secondsOf(spec);
      if (!Number.isFinite(seconds)) continue;
      const known = recorded.get(spec.project.name);
      if (known) known.push(seconds);
      else recorded.set(spec.project.name, [seconds]);
    }
    const meanSeconds = (project: string) => {
      const known = recorded.get(project) ?? [];
      return known.length === 0 ? 0 : known.reduce((a, b) => a + b, 0) / known.length;
    };
    const base = await super.sort(files);
    const position = new Map(base.map((spec, i) => [spec, i]));
    return [...base].sort((a, b) => {
      const groupDiff = a.project.config.sequence.groupOrder - b.project.config.sequence.groupOrder;
      if (groupDiff !== 0) return groupDiff;
      if (a.project.name !== b.project.name) {
        const projectDiff = meanSeconds(b.project.name) - meanSeconds(a.project.name);
        if (projectDiff !== 0) return projectDiff;
        return a.project.name < b.project.name ? -1 : 1;
      }
      const diff = secondsOf(b) - secondsOf(a);
      if (diff !== 0 && !Number.isNaN(diff)) return diff;
      return (position.get(a) ?? 0) - (position.get(b) ?? 0);
    });
  }
}
