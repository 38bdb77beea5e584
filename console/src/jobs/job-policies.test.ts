import type { PausedBy } from '@tickring/client';
import { describe, expect, it } from 'vitest';
import { deadlineText, failurePolicyText, pausedReasonText } from './job-policies';

describe('failurePolicyText', () => {
  it('says the rule and what happens after the pause', () => {
    expect(failurePolicyText({ pauseAfter: { consecutive: 1 } })).toBe(
      'pause after 1 failure in a row; stays paused until started',
    );
    expect(failurePolicyText({ pauseAfter: { failures: 3, ofLast: 5 }, resumeAfterSeconds: 600 })).toBe(
      'pause after 3 failures of the last 5; resumes 600 s later',
    );
  });
});

describe('pausedReasonText', () => {
  const paused: PausedBy = {
    reason: 'failurePolicy',
    at: '2030-01-01T00:00:00Z',
    failures: 3,
    ofLast: 5,
    resumeAt: null,
  };

  it('names the failures that met the rule', () => {
    expect(pausedReasonText(paused, { pauseAfter: { failures: 3, ofLast: 5 } })).toBe(
      '3 of the last 5 failed',
    );
    expect(pausedReasonText({ ...paused, ofLast: 3 }, { pauseAfter: { consecutive: 3 } })).toBe(
      '3 in a row failed',
    );
  });
});

describe('deadlineText', () => {
  it('names the time, the zone, and weekdays when it is not daily', () => {
    expect(deadlineText({ time: '06:00', timeZone: 'Europe/Berlin' })).toBe('06:00 Europe/Berlin');
    expect(deadlineText({ time: '06:00', timeZone: 'Europe/Berlin', days: 'weekdays' })).toBe(
      '06:00 Europe/Berlin on weekdays',
    );
  });
});
