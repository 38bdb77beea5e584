/**
 * The import's copy of tickring's API against the scheduler itself: the names and limits it mirrors,
 * and every body it maps, read by the real `parseGroupSpec` / `parseJobSpec` and stored as sent (so
 * the identity the import finds jobs by is the one tickring keeps). Test files may import the
 * scheduler; the module may not.
 */

import { ROUTE_STRATEGIES as DOMAIN_ROUTES } from '@tickring/core/dispatch';
import {
  ADDRESS_TYPES as DOMAIN_ADDRESS_TYPES,
  BLOCK_STRATEGIES as DOMAIN_BLOCKS,
  GLUE_TYPES as DOMAIN_GLUE,
  normalizeExecutorAddress as domainNormalize,
  GROUP_EDITABLE_FIELDS,
  GROUP_LIMITS,
  JOB_DEFAULTS,
  JOB_EDITABLE_FIELDS,
  JOB_LIMITS,
  parseGroupSpec,
  parseJobSpec,
  TRIGGER_STATUSES,
} from '@tickring/core/jobs';
import {
  MISFIRE_STRATEGIES as DOMAIN_MISFIRE,
  SCHEDULE_TYPES as DOMAIN_SCHEDULES,
  MAX_FIX_RATE_SECONDS,
} from '@tickring/core/schedule';
import { describe, expect, it } from 'vitest';
import { normalizeExecutorAddress } from './map.js';
import { parseDump } from './parse-dump.js';
import { jobIdentity, planImport } from './plan.js';
import {
  groupRow,
  HOSTILE_SOURCE,
  jobRow,
  mysqldump,
  SAMPLE_2_4_2,
  SAMPLE_3_4_2,
} from './test-support/dumps.js';
import {
  ADDRESS_TYPES,
  APP_NAME_PATTERN,
  BLOCK_STRATEGIES,
  GLUE_TYPES,
  LIMITS,
  MISFIRE_STRATEGIES,
  ROUTE_STRATEGIES,
  SCHEDULE_TYPES,
} from './types.js';

describe("the import's mirror of tickring's API", () => {
  it('has the same names', () => {
    expect(SCHEDULE_TYPES).toEqual(DOMAIN_SCHEDULES);
    expect(MISFIRE_STRATEGIES).toEqual(DOMAIN_MISFIRE);
    expect(ROUTE_STRATEGIES).toEqual(DOMAIN_ROUTES);
    expect(BLOCK_STRATEGIES).toEqual(DOMAIN_BLOCKS);
    expect(GLUE_TYPES).toEqual(DOMAIN_GLUE);
    expect(ADDRESS_TYPES).toEqual(DOMAIN_ADDRESS_TYPES);
    expect(TRIGGER_STATUSES).toContain('STOPPED');
  });

  it('has the same limits', () => {
    expect(LIMITS).toMatchObject({
      appNameMin: GROUP_LIMITS.appNameMin,
      appName: GROUP_LIMITS.appName,
      groupTitle: GROUP_LIMITS.title,
      addressList: GROUP_LIMITS.addressList,
      address: GROUP_LIMITS.address,
      name: JOB_LIMITS.name,
      author: JOB_LIMITS.author,
      alarmEmail: JOB_LIMITS.alarmEmail,
      scheduleConf: JOB_LIMITS.scheduleConf,
      executorHandler: JOB_LIMITS.executorHandler,
      executorParam: JOB_LIMITS.executorParam,
      glueSource: JOB_LIMITS.glueSource,
      childJobIds: JOB_LIMITS.childJobIds,
      int: MAX_FIX_RATE_SECONDS,
    });
    // The appName rule, by what parseGroupSpec accepts.
    for (const appName of ['abcd', 'a.b-c_d', 'a'.repeat(64), 'abc', 'a b c', 'αβγδ', 'a'.repeat(65)]) {
      const accepted = (() => {
        try {
          parseGroupSpec({ appName, title: 't', addressType: 'AUTO' });
          return true;
        } catch {
          return false;
        }
      })();
      const ours =
        appName.length >= LIMITS.appNameMin &&
        appName.length <= LIMITS.appName &&
        APP_NAME_PATTERN.test(appName);
      expect(ours, appName).toBe(accepted);
    }
  });

  it('normalizes executor addresses as tickring does', () => {
    for (const address of [
      'http://a:9999',
      'https://a/b/',
      'lambda:fn',
      'lambda:bad fn',
      'a:1',
      'ftp://x/',
      'http://',
      `http://a/${'x'.repeat(2050)}`,
    ]) {
      expect(normalizeExecutorAddress(address), address).toBe(domainNormalize(address));
    }
  });

  it('sends only job fields tickring knows, STOPPED, and leaves retryBackoffSeconds and alarmWebhook at their defaults', () => {
    const body = planImport(parseDump(SAMPLE_2_4_2), { groups: [], jobs: [] }).jobs[0]?.body ?? {};
    for (const key of Object.keys(body)) expect(JOB_EDITABLE_FIELDS).toContain(key);
    expect(Object.keys(body)).not.toContain('retryBackoffSeconds');
    expect(Object.keys(body)).not.toContain('alarmWebhook');
    expect(JOB_DEFAULTS.retryBackoffSeconds).toBe(10);
    expect(parseJobSpec(body).triggerStatus).toBe('STOPPED');
  });
});

describe('every body the import maps is what tickring accepts and keeps', () => {
  const dumps = {
    'sample 2.4.2': SAMPLE_2_4_2,
    'sample 3.4.2': SAMPLE_3_4_2,
    'everything that needs a change': mysqldump({
      groups: [
        groupRow(),
        groupRow({
          id: 2,
          app_name: ' billing ',
          title: '',
          address_type: 1,
          address_list: 'http://10.0.0.7:9999,bad,http://10.0.0.8:9999/',
        }),
        groupRow({
          id: 3,
          app_name: 'manual-none',
          title: 'x'.repeat(70),
          address_type: 1,
          address_list: 'nope',
        }),
        groupRow({ id: 4, app_name: 'odd-type', address_type: 5, address_list: 'https://exec.example/' }),
        groupRow({ id: 5, app_name: 'auto-with-list', address_list: 'http://1.2.3.4:9999/' }),
      ],
      jobs: [
        jobRow({ id: 1, child_jobid: '2,3,1' }),
        jobRow({
          id: 2,
          job_group: 2,
          job_desc: '',
          author: '',
          alarm_email: 'a@x.io; bad; b@y.io',
          trigger_status: 1,
        }),
        jobRow({
          id: 3,
          job_group: 3,
          schedule_type: 'FIX_DELAY',
          schedule_conf: '15',
          executor_timeout: -5,
        }),
        jobRow({
          id: 4,
          job_group: 4,
          schedule_type: 'FIX_RATE',
          schedule_conf: 'soon',
          executor_route_strategy: 'BOGUS',
        }),
        jobRow({
          id: 5,
          job_group: 5,
          schedule_type: 'NONE',
          schedule_conf: '0 0 * * * ?',
          misfire_strategy: null,
        }),
        jobRow({
          id: 6,
          glue_type: 'GLUE_SHELL',
          executor_handler: '',
          glue_source: HOSTILE_SOURCE,
          child_jobid: '7',
        }),
        jobRow({
          id: 7,
          glue_type: 'glue_python',
          executor_handler: ' ',
          glue_source: 'print(1)\n',
          child_jobid: '6',
        }),
        jobRow({
          id: 8,
          schedule_type: 'CRON',
          schedule_conf: '  0 15 10 ? * 6L 2030  ',
          executor_block_strategy: 'COVER_EARLY',
        }),
        jobRow({ id: 9, job_desc: '😀'.repeat(200), author: 'a'.repeat(90), executor_handler: ' spaced ' }),
        jobRow({ id: 10, schedule_type: 'WEEKLY', schedule_conf: 'MON' }),
      ],
    }),
  };

  for (const [name, text] of Object.entries(dumps)) {
    it(name, () => {
      const plan = planImport(parseDump(text), { groups: [], jobs: [] }, { timeZone: 'Europe/Berlin' });
      const groups = plan.groups.filter((g) => g.body);
      const jobs = plan.jobs.filter((j) => j.body);
      expect(groups.length).toBeGreaterThan(0);
      expect(jobs.length).toBeGreaterThan(0);
      for (const g of groups) {
        const spec = parseGroupSpec(g.body);
        expect(spec, g.appName).toEqual({ addressList: [], ...g.body });
        expect(
          Object.keys(g.body ?? {}).every((k) => (GROUP_EDITABLE_FIELDS as readonly string[]).includes(k)),
        ).toBe(true);
      }
      for (const [i, j] of jobs.entries()) {
        const spec = parseJobSpec(j.body);
        expect(spec, j.name).toEqual({ ...JOB_DEFAULTS, ...j.body });
        expect(jobIdentity(spec)).toBe(jobIdentity(j.body as NonNullable<typeof j.body>));
        // The child-links update is read over the stored job, as PUT /v1/jobs/{id} reads it.
        expect(parseJobSpec({ childJobIds: [1000 + i] }, { base: spec, id: 1 }).childJobIds).toEqual([
          1000 + i,
        ]);
      }
    });
  }
});
