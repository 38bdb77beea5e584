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
    const base = await super.sort(files);
    const ordered = orderByDuration(
      base.map((spec) => ({
        spec,
        project: spec.project.name,
        groupOrder: spec.project.config.sequence.groupOrder,
        key: fileDurationKey(spec.project.name, root, spec.moduleId),
      })),
      readDurations(root),
    );
    return ordered.map((file) => file.spec);
  }
}

/** A test file as the order sees it: its project, the project's group and its key in the durations. */
export interface SequencedFile {
  readonly project: string;
  readonly groupOrder: number;
  readonly key: string;
}

/**
 * The files in the order they start (see {@link DurationSequencer}): by group; within a group, the
 * project with the longest recorded files on average first (its name breaking ties); within a
 * project, the longest first, a file without a duration before all (a new one), then the order given.
 */
export function orderByDuration<F extends SequencedFile>(files: readonly F[], durations: FileDurations): F[] {
  const secondsOf = (file: F) => durations[file.key] ?? Number.POSITIVE_INFINITY;
  const recorded = new Map<string, number[]>();
  for (const file of files) {
    const seconds = secondsOf(file);
    if (!Number.isFinite(seconds)) continue;
    const known = recorded.get(file.project);
    if (known) known.push(seconds);
    else recorded.set(file.project, [seconds]);
  }
  const meanSeconds = (project: string) => {
    const known = recorded.get(project) ?? [];
    return known.length === 0 ? 0 : known.reduce((a, b) => a + b, 0) / known.length;
  };
  const position = new Map(files.map((file, i) => [file, i]));
  return [...files].sort((a, b) => {
    const groupDiff = a.groupOrder - b.groupOrder;
    if (groupDiff !== 0) return groupDiff;
    if (a.project !== b.project) {
      const projectDiff = meanSeconds(b.project) - meanSeconds(a.project);
      if (projectDiff !== 0) return projectDiff;
      return a.project < b.project ? -1 : 1;
    }
    const diff = secondsOf(b) - secondsOf(a);
    if (diff !== 0 && !Number.isNaN(diff)) return diff;
    return (position.get(a) ?? 0) - (position.get(b) ?? 0);
  });
}
