import { describe, expect, it } from 'vitest';
import {
  clip,
  colorEnabled,
  formatDuration,
  formatInstant,
  localTimeZone,
  Output,
  paletteFor,
  relativeTime,
  renderDetails,
  renderTable,
} from './output.js';
import { captured, fakeIo } from './test-support/fake-io.js';

const NOW = Date.parse('2030-06-01T12:00:00Z');
// biome-ignore lint/suspicious/noControlCharactersInRegex: looking for ANSI escape codes
const ANSI = /\x1b\[/;

describe('relativeTime', () => {
  it.each([
    [NOW, 'now'],
    [NOW - 400, 'now'],
    [NOW - 12_000, '12 s ago'],
    [NOW + 12_000, 'in 12 s'],
    [NOW - 59_999, '59 s ago'],
    [NOW - 3 * 60_000 - 5_000, '3 min ago'],
    [NOW + 90 * 60_000, 'in 1 h'],
    [NOW - 5 * 3_600_000, '5 h ago'],
    [NOW - 47 * 3_600_000, '47 h ago'],
    [NOW - 3 * 86_400_000, '3 d ago'],
    [NOW + 10 * 86_400_000, 'in 10 d'],
  ])('%d → %s', (at, text) => {
    expect(relativeTime(at, NOW)).toBe(text);
  });
});

describe('formatDuration', () => {
  it.each([
    [0, '0 ms'],
    [340, '340 ms'],
    [2_400, '2.4 s'],
    [185_000, '3 min 5 s'],
    [2 * 3_600_000 + 10 * 60_000, '2 h 10 min'],
    [-5, '0 ms'],
  ])('%d ms → %s', (ms, text) => {
    expect(formatDuration(ms)).toBe(text);
  });
});

describe('formatInstant', () => {
  it('shows the wall time and offset of the zone, summer and winter', () => {
    expect(formatInstant(Date.parse('2030-06-01T10:00:00Z'), 'Europe/Berlin')).toBe(
      '2030-06-01 12:00:00 +02:00',
    );
    expect(formatInstant(Date.parse('2030-01-15T10:00:00Z'), 'Europe/Berlin')).toBe(
      '2030-01-15 11:00:00 +01:00',
    );
    expect(formatInstant(Date.parse('2030-01-15T10:00:00Z'), 'UTC')).toBe('2030-01-15 10:00:00 +00:00');
    expect(formatInstant(Date.parse('2030-01-15T10:00:00Z'), 'Asia/Kolkata')).toBe(
      '2030-01-15 15:30:00 +05:30',
    );
    expect(formatInstant(Date.parse('2030-06-28T08:00:00Z'), 'Europe/Berlin', { weekday: true })).toBe(
      'Fri 2030-06-28 10:00:00 +02:00',
    );
  });

  it('shows midnight as 00, not 24', () => {
    expect(formatInstant(Date.parse('2030-01-01T00:00:00Z'), 'UTC')).toBe('2030-01-01 00:00:00 +00:00');
  });

  it("takes the viewer's zone from TZ when it names one", () => {
    expect(localTimeZone({ TZ: 'Asia/Tokyo' })).toBe('Asia/Tokyo');
    expect(localTimeZone({ TZ: 'Not/AZone' })).toBe(Intl.DateTimeFormat().resolvedOptions().timeZone);
  });
});

describe('colour', () => {
  it('is on only for a terminal without NO_COLOR (and not TERM=dumb)', () => {
    expect(colorEnabled(captured(true), {})).toBe(true);
    expect(colorEnabled(captured(false), {})).toBe(false);
    expect(colorEnabled(captured(true), { NO_COLOR: '1' })).toBe(false);
    expect(colorEnabled(captured(true), { NO_COLOR: '' })).toBe(true);
    expect(colorEnabled(captured(true), { TERM: 'dumb' })).toBe(false);
    // picocolors alone would colour a pipe under CI or FORCE_COLOR; a pipe stays plain here.
    expect(colorEnabled(captured(false), { CI: 'true', FORCE_COLOR: '1' })).toBe(false);
  });

  it('paints with escape codes only when enabled', () => {
    expect(paletteFor(captured(true), {}).red('x')).toMatch(ANSI);
    expect(paletteFor(captured(true), { NO_COLOR: '1' }).red('x')).toBe('x');
    expect(paletteFor(captured(false), {}).red('x')).toBe('x');
  });

  it('keeps tables on a pipe free of escape codes, and colours them on a terminal', () => {
    const plain = fakeIo({ stdoutTTY: false });
    new Output(plain).table(['ID', 'STATUS'], [['1', new Output(plain).status('fail')]]);
    expect(plain.stdout.text).not.toMatch(ANSI);

    const tty = fakeIo({ stdoutTTY: true });
    const out = new Output(tty);
    out.table(['ID', 'STATUS'], [['1', out.status('fail')]]);
    expect(tty.stdout.text).toMatch(ANSI);

    const noColor = fakeIo({ stdoutTTY: true, env: { NO_COLOR: '1' } });
    const out2 = new Output(noColor);
    out2.table(['ID', 'STATUS'], [['1', out2.status('fail')]]);
    expect(noColor.stdout.text).not.toMatch(ANSI);
  });
});

describe('tables and details', () => {
  it('aligns columns by display width (CJK, colour codes), without borders or trailing spaces', () => {
    const text = renderTable(
      ['ID', 'NAME', 'STATUS'],
      [
        ['1', '示例任务01', '\x1b[32mok\x1b[39m'],
        ['12', 'nightly', 'fail'],
      ],
    );
    const lines = text.trimEnd().split('\n');
    expect(lines).toHaveLength(3);
    // biome-ignore lint/suspicious/noControlCharactersInRegex: strip colour to measure
    const strip = (s: string) => s.replace(/\x1b\[\d+m/g, '');
    const col = (line: string, word: string) => strip(line).indexOf(word);
    // '示例任务01' is 10 columns wide: the STATUS column starts at the same place in every row.
    const header = lines[0] as string;
    expect(col(lines[1] as string, 'ok')).toBe(col(header, 'STATUS') - 4); // 4 CJK chars count twice
    expect(col(lines[2] as string, 'fail')).toBe(col(header, 'STATUS'));
    for (const line of lines) expect(line).toBe(line.trimEnd());
    expect(text).not.toMatch(/[│┌─]/);
  });

  it('aligns detail keys', () => {
    expect(
      renderDetails([
        ['id', '7'],
        ['next fire', 'soon'],
      ]),
    ).toBe('id:         7\nnext fire:  soon\n');
    expect(renderDetails([['trigger', 'Trigger type: CRON\nRoute strategy: FIRST\n']])).toBe(
      'trigger:  Trigger type: CRON\n          Route strategy: FIRST\n',
    );
  });

  it('clips long and multi-line cells', () => {
    expect(clip('a\n  b', 10)).toBe('a b');
    expect(clip('x'.repeat(20), 10)).toBe(`${'x'.repeat(9)}…`);
  });

  it('shows times with "ago" in the viewer zone', () => {
    const io = fakeIo({ env: { TZ: 'Europe/Berlin' }, now: NOW });
    const out = new Output(io);
    expect(out.when('2030-06-01T11:57:00Z')).toBe('2030-06-01 13:57:00 +02:00 (3 min ago)');
    expect(out.when(null)).toBe('-');
    expect(out.shortWhen('2030-06-01T12:00:12Z')).toBe('14:00:12 (in 12 s)');
    expect(out.shortWhen('2030-05-29T12:00:00Z')).toBe('2030-05-29 14:00 (3 d ago)');
  });
});
