import type { Group, Job } from '../shared/domain/job.js';
import type { Run } from '../shared/domain/run.js';

/** A RUNNING CRON job with XXL-JOB's defaults; override what the test is about. */
export function testJob(overrides: Partial<Job> & Pick<Job, 'id' | 'appName'>): Job {
  return {
    name: `job ${overrides.id}`,
    author: 'test',
    alarmEmail: '',
    alarmWebhook: '',
    scheduleType: 'CRON',
    scheduleConf: '0 0 0 * * ?',
    timeZone: 'UTC',
    misfireStrategy: 'DO_NOTHING',
    executorRouteStrategy: 'FIRST',
    executorHandler: 'demoJobHandler',
    executorParam: '',
    executorBlockStrategy: 'SERIAL_EXECUTION',
    executorTimeout: 0,
    executorFailRetryCount: 0,
    retryBackoffSeconds: 0,
    glueType: 'BEAN',
    glueSource: '',
    glueUpdatetime: 0,
    childJobIds: [],
    triggerStatus: 'RUNNING',
    triggerLastTime: 0,
    triggerNextTime: null,
    slowUntil: 0,
    scheduleRevision: 1,
    createdAt: 1,
    updatedAt: 1,
    version: 1,
    ...overrides,
  };
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
