import { describe, expect, it } from 'vitest';
import { dstMarks, previewFireTimes, type Schedule } from './index.js';

const cron = (conf: string, timeZone: string): Schedule => ({ type: 'CRON', conf, timeZone });

function preview(s: Schedule, fromIso: string, count: number) {
  const from = Date.parse(fromIso);
  const times = previewFireTimes(s, from, count);
  return { times: times.map((t) => new Date(t).toISOString()), ...dstMarks(s, from, times) };
}

describe('DST marks (golden: what Quartz, and so tickring, does)', () => {
  it('Europe/Berlin spring forward: 02:30 does not exist on 29 March 2026, no fire that day', () => {
    const p = preview(cron('0 30 2 * * ?', 'Europe/Berlin'), '2026-03-28T00:00:00Z', 3);
    expect(p.times).toEqual([
      '2026-03-28T01:30:00.000Z',
      '2026-03-30T00:30:00.000Z',
      '2026-03-31T00:30:00.000Z',
    ]);
    expect(p.transitions).toEqual([
      {
        kind: 'skippedHour',
        at: Date.parse('2026-03-29T01:00:00Z'),
        localFrom: '2026-03-29T02:00:00',
        localTo: '2026-03-29T03:00:00',
        offsetBefore: '+01:00',
        offsetAfter: '+02:00',
        matches: 1,
        firstMatches: ['2026-03-29T02:30:00'],
        note: 'The schedule names 1 time in the skipped hour: no fire for it that day (the clocks jump from 2026-03-29T02:00:00 to 2026-03-29T03:00:00).',
      },
    ]);
    expect(p.fires).toEqual([]);
  });

  it('Europe/Berlin spring forward, every 15 min from 1 to 3: the four 2 a.m. times are skipped, 03:00 is the cron’s own', () => {
    const p = preview(cron('0 0/15 1-3 * * ?', 'Europe/Berlin'), '2026-03-29T00:30:00Z', 6);
    expect(p.transitions[0]).toMatchObject({
      matches: 4,
      note: expect.stringContaining('no fire for them that day'),
    });
  });

  it('Europe/Berlin fall back: 02:30 happens twice on 25 October 2026, the job fires at the second (+01:00) only', () => {
    const p = preview(cron('0 30 2 * * ?', 'Europe/Berlin'), '2026-10-24T00:00:00Z', 3);
    expect(p.times[1]).toBe('2026-10-25T01:30:00.000Z');
    expect(p.transitions).toMatchObject([
      { kind: 'repeatedHour', localFrom: '2026-10-25T02:00:00', localTo: '2026-10-25T03:00:00', matches: 1 },
    ]);
    expect(p.fires).toEqual([
      {
        time: Date.parse('2026-10-25T01:30:00Z'),
        kind: 'repeatedHour',
        note: '2026-10-25T02:30:00 happens twice (+02:00, then +01:00): the job fires once, at the second (+01:00); the first is skipped.',
      },
    ]);
  });

  it('America/New_York: 02:30 skipped on 8 March 2026; 01:30 fires once, at EST, on 1 November 2026', () => {
    const spring = preview(cron('0 30 2 * * ?', 'America/New_York'), '2026-03-07T12:00:00Z', 2);
    expect(spring.transitions).toMatchObject([
      { kind: 'skippedHour', firstMatches: ['2026-03-08T02:30:00'] },
    ]);
    const fall = preview(cron('0 30 1 * * ?', 'America/New_York'), '2026-10-31T12:00:00Z', 2);
    expect(fall.times[0]).toBe('2026-11-01T06:30:00.000Z');
    expect(fall.fires).toMatchObject([{ time: Date.parse('2026-11-01T06:30:00Z'), kind: 'repeatedHour' }]);
  });

  it('Australia/Lord_Howe 30-minute shifts: 02:15 skipped on 4 October 2026; 01:45 repeated on 5 April 2026, fired once at +10:30', () => {
    const spring = preview(cron('0 15 2 * * ?', 'Australia/Lord_Howe'), '2026-10-03T12:00:00Z', 2);
    expect(spring.transitions).toMatchObject([
      {
        kind: 'skippedHour',
        localFrom: '2026-10-04T02:00:00',
        localTo: '2026-10-04T02:30:00',
        offsetAfter: '+11:00',
      },
    ]);
    const fall = preview(cron('0 45 1 * * ?', 'Australia/Lord_Howe'), '2026-04-04T00:00:00Z', 2);
    expect(fall.transitions).toMatchObject([
      {
        kind: 'repeatedHour',
        localFrom: '2026-04-05T01:30:00',
        localTo: '2026-04-05T02:00:00',
        offsetBefore: '+11:00',
      },
    ]);
    expect(fall.fires).toMatchObject([{ time: Date.parse('2026-04-04T15:15:00Z') }]);
  });

  it('marks nothing where the schedule names no time in the changed hour, in UTC, or for FIX_RATE', () => {
    expect(preview(cron('0 0 12 * * ?', 'Europe/Berlin'), '2026-03-28T00:00:00Z', 3).transitions).toEqual([]);
    expect(preview(cron('0 30 2 * * ?', 'UTC'), '2026-03-28T00:00:00Z', 3).transitions).toEqual([]);
    expect(
      preview({ type: 'FIX_RATE', conf: '600', timeZone: 'Europe/Berlin' }, '2026-03-29T00:30:00Z', 20)
        .transitions,
    ).toEqual([]);
  });
});
