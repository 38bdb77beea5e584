import { describe, expect, it } from 'vitest';
import { handleCodeText, messageLines, runTiming, triggerCodeText } from './timing';

const base = {
  status: 'success',
  scheduledTime: '2030-01-01T02:00:00.000Z',
  dispatchedAt: '2030-01-01T02:00:00.250Z',
  handleTime: '2030-01-01T02:00:41.250Z',
};

describe('runTiming', () => {
  it('is late by started − scheduled and lasts finished − started', () => {
    expect(runTiming(base)).toEqual({ latenessMs: 250, durationMs: 41_000, ongoing: false });
  });

  it('counts a running run up to now, marked ongoing', () => {
    const now = Date.parse('2030-01-01T02:00:10.250Z');
    expect(runTiming({ ...base, status: 'running', handleTime: null }, now)).toEqual({
      latenessMs: 250,
      durationMs: 10_000,
      ongoing: true,
    });
  });

  it('has neither for a run never sent (skipped)', () => {
    expect(runTiming({ ...base, status: 'skipped', dispatchedAt: null, handleTime: null })).toEqual({
      latenessMs: undefined,
      durationMs: undefined,
      ongoing: false,
    });
  });

  it('keeps a negative lateness (dispatched before its due time) and never a negative duration', () => {
    const early = {
      ...base,
      dispatchedAt: '2030-01-01T01:59:59.900Z',
      handleTime: '2030-01-01T01:59:59.000Z',
    };
    expect(runTiming(early)).toEqual({ latenessMs: -100, durationMs: 0, ongoing: false });
  });

  it('has no duration for a finished run without a result time', () => {
    expect(runTiming({ ...base, status: 'fail', handleTime: null }).durationMs).toBeUndefined();
  });
});

describe('messageLines', () => {
  it("splits tickring's newlines into lines", () => {
    expect(messageLines('Trigger type: CRON\nExecutor group: demo (AUTO)\naddress: x\nmsg: ')).toEqual([
      'Trigger type: CRON',
      'Executor group: demo (AUTO)',
      'address: x',
      'msg:',
    ]);
  });

  it("reads XXL-JOB's <br> and drops its spans as text, keeping arrows", () => {
    const msg =
      '任务触发类型：手动触发<br>调度机器：10.0.0.1<br><br><span style="color:#00c0ef;" > >>>>>>>>>>>触发调度<<<<<<<<<<< </span><br>触发调度：<br>address：http://a:9999/<br>code：200<br>msg：null';
    expect(messageLines(msg)).toEqual([
      '任务触发类型：手动触发',
      '调度机器：10.0.0.1',
      '',
      ' >>>>>>>>>>>触发调度<<<<<<<<<<<',
      '触发调度：',
      'address：http://a:9999/',
      'code：200',
      'msg：null',
    ]);
  });

  it('never yields markup: unknown tags stay as text, entities decode to text', () => {
    expect(messageLines('<img src=x onerror=alert(1)>&lt;b&gt; &amp; <br/>done')).toEqual([
      '<img src=x onerror=alert(1)><b> &',
      'done',
    ]);
  });

  it('is empty for no message', () => {
    expect(messageLines('')).toEqual([]);
    expect(messageLines(null)).toEqual([]);
  });
});

describe('code texts', () => {
  it('names the trigger and handle codes', () => {
    expect(triggerCodeText(200)).toBe('accepted by the executor');
    expect(triggerCodeText(600)).toBe('skipped (misfire)');
    expect(handleCodeText(502)).toBe('timed out');
    expect(handleCodeText(0)).toBe('no result yet');
    expect(handleCodeText(7)).toBe('unknown code');
  });
});
