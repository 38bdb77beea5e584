import { describe, expect, it } from 'vitest';
import {
  appendSlice,
  EMPTY_LOG,
  followAfterScroll,
  isAtBottom,
  nextPollDelay,
  sliceLines,
} from './log-follow';

describe('appendSlice', () => {
  it('appends the lines of each slice and asks for the next line', () => {
    let state = appendSlice(EMPTY_LOG, { fromLineNum: 1, toLineNum: 2, logContent: 'a\nb\n', isEnd: false });
    expect(state).toEqual({ lines: ['a', 'b'], dropped: 0, nextLine: 3, ended: false });
    state = appendSlice(state, { fromLineNum: 3, toLineNum: 3, logContent: 'c\n', isEnd: false });
    expect(state.lines).toEqual(['a', 'b', 'c']);
    expect(state.nextLine).toBe(4);
  });

  it('keeps the same state for an empty slice, and ends when told', () => {
    const state = appendSlice(EMPTY_LOG, { fromLineNum: 1, toLineNum: 1, logContent: 'a\n', isEnd: false });
    const same = appendSlice(state, { fromLineNum: 2, toLineNum: 1, logContent: '', isEnd: false });
    expect(same).toBe(state);
    const ended = appendSlice(state, { fromLineNum: 2, toLineNum: 1, logContent: '', isEnd: true });
    expect(ended).toEqual({ ...state, ended: true });
  });

  it('ignores a slice that does not start where the log is (a raced answer)', () => {
    const state = appendSlice(EMPTY_LOG, {
      fromLineNum: 1,
      toLineNum: 2,
      logContent: 'a\nb\n',
      isEnd: false,
    });
    expect(appendSlice(state, { fromLineNum: 1, toLineNum: 2, logContent: 'a\nb\n', isEnd: false })).toBe(
      state,
    );
  });

  it('drops the oldest lines past the cap and counts them', () => {
    let state = appendSlice(
      EMPTY_LOG,
      { fromLineNum: 1, toLineNum: 3, logContent: '1\n2\n3\n', isEnd: false },
      4,
    );
    state = appendSlice(state, { fromLineNum: 4, toLineNum: 6, logContent: '4\n5\n6\n', isEnd: true }, 4);
    expect(state).toEqual({ lines: ['3', '4', '5', '6'], dropped: 2, nextLine: 7, ended: true });
  });
});

describe('sliceLines', () => {
  it('splits on newlines, a last line without one included', () => {
    expect(sliceLines('a\r\nb\nc')).toEqual(['a', 'b', 'c']);
    expect(sliceLines('')).toEqual([]);
    expect(sliceLines('\n')).toEqual(['']);
  });
});

describe('nextPollDelay', () => {
  it('polls every second until the end, and not after an error or while hidden', () => {
    expect(nextPollDelay(EMPTY_LOG, false, true)).toBe(1000);
    expect(nextPollDelay({ ...EMPTY_LOG, ended: true }, false, true)).toBeUndefined();
    expect(nextPollDelay(EMPTY_LOG, true, true)).toBeUndefined();
    expect(nextPollDelay(EMPTY_LOG, false, false)).toBeUndefined();
  });
});

describe('following the end', () => {
  it('follows at the bottom (within a little slack), pauses when scrolled up, resumes back at the end', () => {
    expect(isAtBottom({ scrollTop: 600, clientHeight: 400, scrollHeight: 1000 })).toBe(true);
    expect(isAtBottom({ scrollTop: 590.5, clientHeight: 400, scrollHeight: 1000 })).toBe(true);
    expect(followAfterScroll({ scrollTop: 300, clientHeight: 400, scrollHeight: 1000 })).toBe(false);
    expect(followAfterScroll({ scrollTop: 600, clientHeight: 400, scrollHeight: 1000 })).toBe(true);
  });

  it('follows a log shorter than its box', () => {
    expect(isAtBottom({ scrollTop: 0, clientHeight: 400, scrollHeight: 120 })).toBe(true);
  });
});
