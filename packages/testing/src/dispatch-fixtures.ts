import type { Group, Job } from '@tickring/core/jobs';
import type { Run } from '@tickring/core/runs';
import { makeJob } from './jobs.js';

/** A RUNNING daily CRON job for the dispatch tests (no retry backoff); override what the test is about. */
export function testJob(overrides: Partial<Job> & Pick<Job, 'id' | 'appName'>): Job {
  return makeJob({
    scheduleConf: '0 0 0 * * ?',
    retryBackoffSeconds: 0,
    createdAt: 1,
    updatedAt: 1,
    ...overrides,
  });
}

export function testGroup(overrides: Partial<Group> & Pick<Group, 'appName'>): Group {
  return {
    title: overrides.appName,
    addressType: 'AUTO',
    addressList: [],
    createdAt: 1,
    updatedAt: 1,
    ...overrides,
  };
}

/** A run as the dispatcher records it before sending (triggerCode 0), e.g. one a crashed dispatcher left. */
export function testRun(
  overrides: Partial<Run> & Pick<Run, 'logId' | 'jobId' | 'appName' | 'dedupKey' | 'scheduledTime'>,
): Run {
  return {
    jobName: `job ${overrides.jobId}`,
    triggerType: 'MANUAL',
    triggerTime: overrides.scheduledTime,
    executorHandler: 'demoJobHandler',
    executorParam: '',
    executorRouteStrategy: 'FIRST',
    executorTimeout: 0,
    shardIndex: 0,
    shardTotal: 1,
    attempt: 1,
    retriesLeft: 0,
    executorAddress: '',
    triggerCode: 0,
    triggerMsg: '',
    dispatchedAt: 0,
    handleCode: 0,
    handleMsg: '',
    handleTime: 0,
    alarmStatus: 0,
    ...overrides,
  };
}
