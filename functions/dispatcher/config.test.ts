import { FUNCTIONS, QUEUE_LIST } from '@tickring/aws/topology';
import { ENV, SETTINGS } from '@tickring/core/config';
import { DISPATCH_DEFAULTS } from '@tickring/core/dispatch/use-cases';
import { describe, expect, it } from 'vitest';
import { loadConfig } from './config.js';
import { dispatchSettings } from './deps.js';

const env = {
  [ENV.jobsTable]: 'jobs',
  [ENV.groupsTable]: 'groups',
  [ENV.controlTable]: 'control',
  [ENV.runsTable]: 'runs',
  [ENV.registryTable]: 'registry',
  [ENV.workflowsTable]: 'workflows',
  [ENV.auditTable]: 'audit',
  [ENV.alertsTable]: 'alerts',
  [ENV.ringFastQueueUrl]: 'http://sqs/fast',
  [ENV.ringSlowQueueUrl]: 'http://sqs/slow',
  [ENV.accessToken]: 'acc3ss',
  [ENV.tokenKey]: 'k3y',
  [ENV.alarmTopicArn]: 'arn:aws:sns:us-east-1:000000000000:alarms',
};
const timeoutMs = FUNCTIONS.dispatcher.timeoutSeconds * 1000;

describe('dispatcher timing: its timeout, the claims and the ring queues agree', () => {
  const settings = dispatchSettings(loadConfig(env));

  it('takes a claim over only once the dispatcher that made it has ended, with a margin for clocks', () => {
    expect(settings.claimStaleMs).toBeGreaterThan(timeoutMs);
    expect(settings.claimStaleMs).toBe(DISPATCH_DEFAULTS.claimStaleMs);
  });

  it('leaves time to route and send a fire that waited the longest for its time (default executor timeout)', () => {
    expect(settings.maxWaitMs + settings.sendMarginMs).toBeLessThanOrEqual(timeoutMs - 5_000);
  });

  it('redelivers a held fire after six timeouts (AWS advice for Lambda event sources), when its claim is stale', () => {
    for (const queue of QUEUE_LIST) {
      expect(queue.visibilityTimeoutSeconds).toBe(6 * FUNCTIONS.dispatcher.timeoutSeconds);
      expect(queue.visibilityTimeoutSeconds * 1000).toBeGreaterThan(settings.claimStaleMs);
    }
  });

  it('reads a dispatch record for the lost-run watch only after its dispatcher has ended', () => {
    expect(SETTINGS.lostRunSettleSeconds.default * 1000).toBeGreaterThan(timeoutMs);
  });
});
