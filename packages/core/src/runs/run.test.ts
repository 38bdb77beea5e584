import { describe, expect, it } from 'vitest';
import { HANDLE_CODE, RUN_STATUSES, runStatus, TRIGGER_CODE, takesResult } from './run.js';

describe('runStatus', () => {
  it('follows XXL-JOB’s report rule for sent and refused runs', () => {
    expect(runStatus({ triggerCode: 0, handleCode: 0 })).toBe('running');
    expect(runStatus({ triggerCode: TRIGGER_CODE.success, handleCode: 0 })).toBe('running');
    expect(runStatus({ triggerCode: TRIGGER_CODE.success, handleCode: HANDLE_CODE.success })).toBe('success');
    expect(runStatus({ triggerCode: TRIGGER_CODE.success, handleCode: HANDLE_CODE.timeout })).toBe('fail');
    expect(runStatus({ triggerCode: TRIGGER_CODE.fail, handleCode: 0 })).toBe('fail');
  });

  it('calls a run recorded as a misfire skipped: finished, never running nor failed', () => {
    expect(runStatus({ triggerCode: TRIGGER_CODE.skipped, handleCode: 0 })).toBe('skipped');
    expect(RUN_STATUSES).toEqual(['running', 'success', 'fail', 'skipped']);
  });
});

describe('takesResult', () => {
  it('takes the first result of a sent or refused run, and none for a run recorded as skipped', () => {
    expect(takesResult({ triggerCode: TRIGGER_CODE.success, handleCode: 0 })).toBe(true);
    expect(takesResult({ triggerCode: TRIGGER_CODE.fail, handleCode: 0 })).toBe(true);
    expect(takesResult({ triggerCode: TRIGGER_CODE.success, handleCode: HANDLE_CODE.fail })).toBe(false);
    expect(takesResult({ triggerCode: TRIGGER_CODE.skipped, handleCode: 0 })).toBe(false);
  });
});
