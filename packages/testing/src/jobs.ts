import type { Job } from '@tickring/core/jobs';

/** A complete job for tests, RUNNING by default; override what the test is about. */
export function makeJob(overrides: Partial<Job> & Pick<Job, 'id'>): Job {
  return {
    appName: 'test-app',
    name: `job ${overrides.id}`,
    author: 'test',
    alarmEmail: '',
    alarmWebhook: '',
    scheduleType: 'CRON',
    scheduleConf: '* * * * * ?',
    timeZone: 'UTC',
    misfireStrategy: 'DO_NOTHING',
    executorRouteStrategy: 'FIRST',
    executorHandler: 'demoJobHandler',
    executorParam: '',
    executorBlockStrategy: 'SERIAL_EXECUTION',
    executorTimeout: 0,
    executorFailRetryCount: 0,
    retryBackoffSeconds: 10,
    glueType: 'BEAN',
    glueSource: '',
    glueUpdatetime: 0,
    childJobIds: [],
    triggerStatus: 'RUNNING',
    triggerLastTime: 0,
    triggerNextTime: null,
    slowUntil: 0,
    scheduleRevision: 1,
    createdAt: 0,
    updatedAt: 0,
    version: 1,
    ...overrides,
  };
}
