import { type Run, TRIGGER_CODE } from '@tickring/core/runs';
import { makeRun } from '@tickring/testing';
import { describe, expect, it } from 'vitest';
import { checkResponse } from '../../test/openapi-check.js';
import { runView } from './views.js';

const DUE = Date.parse('2030-01-02T01:02:00.000Z');

const skipped = (fields: Partial<Run> = {}) =>
  makeRun({
    logId: 30064771201,
    jobId: 7,
    scheduledTime: DUE,
    triggerTime: DUE + 9_120,
    executorAddress: '',
    triggerCode: TRIGGER_CODE.skipped,
    handleCode: 0,
    ...fields,
  });

describe('runView: the range a skipped run stands for', () => {
  it('shows the count and the last fire’s time of a skipped range', () => {
    const view = runView(skipped({ skippedCount: 12, skippedUntil: DUE + 11_000 }));
    expect(view).toMatchObject({
      status: 'skipped',
      scheduledTime: '2030-01-02T01:02:00.000Z',
      skippedCount: 12,
      skippedUntil: '2030-01-02T01:02:11.000Z',
    });
    checkResponse('GET', `/v1/logs/${view.logId}`, 200, view);
  });

  it('shows a skipped run recorded without a range as one fire, due at its own time', () => {
    const view = runView(skipped());
    expect(view).toMatchObject({ skippedCount: 1, skippedUntil: '2030-01-02T01:02:00.000Z' });
    checkResponse('GET', `/v1/logs/${view.logId}`, 200, view);
  });

  it('gives null for both on a run that was not skipped', () => {
    const view = runView(
      makeRun({
        logId: 30064771073,
        jobId: 7,
        scheduledTime: DUE,
        triggerTime: DUE,
        triggerCode: TRIGGER_CODE.success,
      }),
    );
    expect(view.status).not.toBe('skipped');
    expect(view).toMatchObject({ skippedCount: null, skippedUntil: null });
    checkResponse('GET', `/v1/logs/${view.logId}`, 200, view);
  });
});
