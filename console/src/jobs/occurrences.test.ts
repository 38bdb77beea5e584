import type { OccurrenceException } from '@tickring/client';
import { describe, expect, it } from 'vitest';
import { exceptionMarks, exceptionText, moveOf, moveWindow, type Occurrence } from './occurrences';

const skip: OccurrenceException = {
  at: '2030-01-02T09:00:00.000Z',
  action: 'skip',
  to: null,
  reason: 'public holiday',
  by: 'ana',
  createdAt: '2030-01-01T00:00:00.000Z',
};
const move: OccurrenceException = {
  at: '2030-01-03T09:00:00.000Z',
  action: 'move',
  to: '2030-01-03T09:30:00.000Z',
  reason: null,
  by: 'bo',
  createdAt: '2030-01-01T00:00:00.000Z',
};

const occurrence = (time: string, fireAt: string | null, exception: OccurrenceException | null = null) =>
  ({ time, fireAt, exception, changeable: true }) satisfies Occurrence;

describe('moveWindow', () => {
  const list = [
    occurrence('2030-01-02T09:00:00.000Z', null, skip),
    occurrence('2030-01-03T09:00:00.000Z', '2030-01-03T09:30:00.000Z', move),
    occurrence('2030-01-04T09:00:00.000Z', '2030-01-04T09:00:05.000Z'),
  ];

  it('lies between the neighbours’ real fire times (a skipped one at its own time)', () => {
    expect(moveWindow(list, 1)).toEqual({
      after: '2030-01-02T09:00:00.000Z',
      before: '2030-01-04T09:00:05.000Z',
    });
    expect(moveWindow(list, 2)).toEqual({ after: '2030-01-03T09:30:00.000Z', before: null });
  });

  it('starts at now for the first fire listed', () => {
    expect(moveWindow(list, 0)).toEqual({ after: null, before: '2030-01-03T09:30:00.000Z' });
  });
});

describe('exceptionText', () => {
  it('says what was done, why and by whom', () => {
    const format = (iso: string) => iso.slice(11, 16);
    expect(exceptionText(skip, format)).toBe('skipped (public holiday), by ana');
    expect(exceptionText(move, format)).toBe('moved to 09:30, by bo');
  });
});

describe('exceptionMarks', () => {
  it('keeps the exceptions whose time or move falls in the span, oldest first', () => {
    const from = Date.parse('2030-01-02T00:00:00Z');
    const marks = exceptionMarks([move, skip], from, Date.parse('2030-01-03T09:10:00Z'));
    expect(marks.map((m) => m.exception.action)).toEqual(['skip', 'move']);
    expect(marks[1]).toMatchObject({ at: Date.parse(move.at), to: Date.parse(move.to!) });
    expect(exceptionMarks([move, skip], from, Date.parse('2030-01-02T08:00:00Z'))).toEqual([]);
  });
});

describe('moveOf', () => {
  it('finds the move of the occurrence a run was scheduled for, in any ISO form', () => {
    expect(moveOf([skip, move], '2030-01-03T09:00:00Z')).toBe(move);
    expect(moveOf([skip, move], '2030-01-02T09:00:00Z')).toBeUndefined();
  });
});
