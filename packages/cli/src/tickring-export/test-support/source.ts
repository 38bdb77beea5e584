/**
 * For tests: a source installation as its API lists it (ids with gaps, a child job, a workflow whose
 * schedule job a job names as its child), and its export document.
 */
import type { Group, Job, Workflow } from '@tickring/client';
import type { JobCreateBody } from '../apply.js';
import { buildExportDocument, type ExportDocument } from '../document.js';
import { group, job, workflow } from './fake-target.js';

export function jobBody(
  appName: string,
  name: string,
  more: Partial<Job> = {},
): JobCreateBody & Partial<Job> {
  return {
    appName,
    name,
    author: 'ops',
    alarmEmail: 'ops@example.com',
    alarmWebhook: '',
    scheduleType: 'NONE',
    scheduleConf: '',
    timeZone: 'Europe/Berlin',
    misfireStrategy: 'DO_NOTHING',
    executorRouteStrategy: 'ROUND',
    executorHandler: name.replace(/\W/g, ''),
    executorParam: '',
    executorBlockStrategy: 'SERIAL_EXECUTION',
    executorTimeout: 30,
    executorFailRetryCount: 2,
    retryBackoffSeconds: 5,
    glueType: 'BEAN',
    glueSource: '',
    childJobIds: [],
    triggerStatus: 'STOPPED',
    ...more,
  } as JobCreateBody & Partial<Job>;
}

export interface Source {
  readonly groups: Group[];
  readonly jobs: Job[];
  readonly workflows: Workflow[];
}

/**
 * Groups `billing` (AUTO, own token) and `reports` (MANUAL); jobs #3 nightly (RUNNING, CRON, child
 * #5), #4 extract, #5 notify, #7 load, #9 after-etl (child: #8, workflow #2's schedule job); workflow
 * #2 etl (extract → load, RUNNING, CRON) of reports.
 */
export function sourceInstallation(): Source {
  const billing = {
    ...group({ appName: 'billing', title: 'Billing', addressType: 'AUTO' }),
    accessTokenSetAt: '2030-01-01T00:00:00.000Z',
  };
  const reports = group({
    appName: 'reports',
    title: 'Reports',
    addressType: 'MANUAL',
    addressList: ['http://10.0.0.5:9999/'],
  });
  const jobs = [
    job(
      3,
      jobBody('billing', 'nightly', {
        scheduleType: 'CRON',
        scheduleConf: '0 0 2 * * ?',
        triggerStatus: 'RUNNING',
        childJobIds: [5],
      }),
    ),
    job(4, jobBody('reports', 'extract')),
    job(5, jobBody('billing', 'notify', { alarmWebhook: 'https://hooks.example.com/x' })),
    job(7, jobBody('reports', 'load', { executorParam: 'mode=full' })),
    job(9, jobBody('reports', 'after etl', { childJobIds: [8] })),
    {
      ...job(8, jobBody('reports', 'workflow 2', { scheduleType: 'CRON', scheduleConf: '0 0 3 * * ?' })),
      workflowId: 2,
    },
  ];
  const workflows = [
    workflow(2, 8, {
      name: 'etl',
      appName: 'reports',
      scheduleType: 'CRON',
      scheduleConf: '0 0 3 * * ?',
      timeZone: 'UTC',
      misfireStrategy: 'DO_NOTHING',
      overlapPolicy: 'SKIP',
      deadline: { time: '06:00', timeZone: 'Europe/Berlin' },
      triggerStatus: 'RUNNING',
      nodes: [
        { key: 'extract', jobId: 4, upstream: [] },
        {
          key: 'load',
          jobId: 7,
          executorParam: '{{ nodes.extract.result }}',
          upstream: [{ key: 'extract', condition: 'ON_SUCCESS' }],
        },
      ],
    }),
  ];
  return { groups: [billing, reports], jobs, workflows };
}

export function sourceDocument(source: Source = sourceInstallation()): ExportDocument {
  return buildExportDocument({
    source: 'http://old-box:8080',
    exportedAt: '2030-01-02T00:00:00.000Z',
    ...source,
  });
}
