import { describe, expect, it } from 'vitest';
import { fileDurationKey, orderByDuration, type SequencedFile } from './duration-sequencer.js';

const file = (project: string, groupOrder: number, name: string): SequencedFile => ({
  project,
  groupOrder,
  key: `${project}:${name}`,
});
const names = (files: readonly SequencedFile[]) => files.map((f) => f.key);

describe('orderByDuration', () => {
  it('runs the groups in their order, and a project’s files together, the longest on average first', () => {
    const files = [
      file('unit', 2, 'a.test.ts'),
      file('faults', 2, 'kill.int.test.ts'),
      file('integration', 1, 'e2e.int.test.ts'),
      file('unit', 2, 'b.test.ts'),
      file('faults', 2, 'pause.int.test.ts'),
    ];
    const durations = {
      'unit:a.test.ts': 1,
      'unit:b.test.ts': 60, // longer than any fault file, yet the unit project comes after: 30.5 s on average
      'faults:kill.int.test.ts': 50,
      'faults:pause.int.test.ts': 30,
      'integration:e2e.int.test.ts': 5,
    };
    expect(names(orderByDuration(files, durations))).toEqual([
      'integration:e2e.int.test.ts',
      'faults:kill.int.test.ts',
      'faults:pause.int.test.ts',
      'unit:b.test.ts',
      'unit:a.test.ts',
    ]);
  });

  it('starts a file without a recorded duration first in its project, and leaves it out of the average', () => {
    const files = [
      file('unit', 2, 'old.test.ts'),
      file('unit', 2, 'new.test.ts'),
      file('faults', 2, 'f.int.test.ts'),
    ];
    const durations = { 'unit:old.test.ts': 1, 'faults:f.int.test.ts': 30 };
    expect(names(orderByDuration(files, durations))).toEqual([
      'faults:f.int.test.ts',
      'unit:new.test.ts',
      'unit:old.test.ts',
    ]);
  });

  it('keeps the order given where nothing tells them apart, and orders same-average projects by name', () => {
    const files = [file('b', 1, 'x'), file('b', 1, 'y'), file('a', 1, 'z')];
    expect(names(orderByDuration(files, {}))).toEqual(['a:z', 'b:x', 'b:y']);
    expect(names(orderByDuration(files, { 'b:x': 2, 'b:y': 2 }))).toEqual(['b:x', 'b:y', 'a:z']);
  });
});

describe('fileDurationKey', () => {
  it('keys a file by its project and its path from the root, with forward slashes', () => {
    expect(fileDurationKey('unit', '/repo', '/repo/packages/core/src/a.test.ts')).toBe(
      'unit:packages/core/src/a.test.ts',
    );
  });
});
