import { TRIGGER_STATUSES as DOMAIN_TRIGGER_STATUSES, JOB_EDITABLE_FIELDS } from '@tickring/core/jobs';
import {
  EDGE_CONDITIONS as DOMAIN_EDGE_CONDITIONS,
  OVERLAP_POLICIES as DOMAIN_OVERLAP_POLICIES,
} from '@tickring/core/workflows';
import { describe, expect, it } from 'vitest';
import {
  EDGE_CONDITIONS,
  EXPORTED_JOB_FIELDS,
  exportedGroup,
  OVERLAP_POLICIES,
  TRIGGER_STATUSES,
  UNEXPORTED_JOB_FIELDS,
  validateDocument,
} from './document.js';
import { group } from './test-support/fake-target.js';
import { sourceDocument } from './test-support/source.js';

/** A fresh, mutable copy of the sample document. */
// biome-ignore lint/suspicious/noExplicitAny: the tests break documents field by field
const sample = () => structuredClone(sourceDocument()) as unknown as Record<string, any>;

describe('the export document', () => {
  it("mirrors the API's names and carries every field an admin sets on a job", () => {
    expect(TRIGGER_STATUSES).toEqual(DOMAIN_TRIGGER_STATUSES);
    expect(OVERLAP_POLICIES).toEqual(DOMAIN_OVERLAP_POLICIES);
    expect(EDGE_CONDITIONS).toEqual(DOMAIN_EDGE_CONDITIONS);
    expect([...EXPORTED_JOB_FIELDS, ...UNEXPORTED_JOB_FIELDS].sort()).toEqual(
      [...JOB_EDITABLE_FIELDS].sort(),
    );
  });

  it('is written from the API views: no schedule job among the jobs, addresses of MANUAL groups only, no token', () => {
    const doc = sourceDocument();
    expect(doc).toMatchObject({ format: 'tickring-export', version: 1, source: 'http://old-box:8080' });
    expect(doc.jobs.map((j) => j.id)).toEqual([3, 4, 5, 7, 9]);
    expect(doc.groups).toEqual([
      { appName: 'billing', title: 'Billing', addressType: 'AUTO', hasOwnAccessToken: true },
      {
        appName: 'reports',
        title: 'Reports',
        addressType: 'MANUAL',
        addressList: ['http://10.0.0.5:9999/'],
        hasOwnAccessToken: false,
      },
    ]);
    expect(doc.jobs[0]).toEqual(
      expect.objectContaining({ id: 3, childJobIds: [5], triggerStatus: 'RUNNING', retryBackoffSeconds: 5 }),
    );
    expect(Object.keys(doc.jobs[0] ?? {})).not.toContain('version');
    expect(doc.workflows[0]).toMatchObject({
      id: 2,
      starterJobId: 8,
      overlapPolicy: 'SKIP',
      deadline: { time: '06:00', timeZone: 'Europe/Berlin' },
    });
    expect(JSON.stringify(doc)).not.toMatch(/accessToken"|createdAt|triggerNextTime/);
  });

  it("leaves a group's alert channels behind, as a job's (their ids are the source installation's)", () => {
    const exported = exportedGroup({
      ...group({ appName: 'billing', title: 'B', addressType: 'AUTO' }),
      alertChannels: ['ch-1'],
    });
    expect(exported).toEqual({
      appName: 'billing',
      title: 'B',
      addressType: 'AUTO',
      hasOwnAccessToken: false,
    });
    expect(UNEXPORTED_JOB_FIELDS).toEqual(['alertChannels']);
  });

  it('a document as written validates, also after a trip through JSON', () => {
    const result = validateDocument(JSON.parse(JSON.stringify(sourceDocument())));
    expect(result).toEqual({ ok: true, document: sourceDocument() });
  });

  it('reports every problem at once, each with where it is', () => {
    const doc = sample();
    doc.extra = 1;
    doc.groups[1].addressList = [];
    doc.groups.push({ ...doc.groups[0] });
    delete doc.jobs[0].author;
    doc.jobs[1].scheduleType = 'HOURLY';
    doc.jobs[1].executorTimeout = -1;
    doc.jobs[2].childJobIds = [5, 42];
    doc.jobs[3].childJobIds = [9];
    doc.jobs[4].childJobIds = [7];
    doc.jobs[4].glue = 'x';
    doc.jobs.push({ ...doc.jobs[1], appName: 'nowhere' });
    doc.workflows[0].nodes[0].jobId = 5;
    doc.workflows[0].nodes[1].upstream = [{ key: 'nope', condition: 'SOMETIMES' }];

    const result = validateDocument(doc);
    expect(result.ok).toBe(false);
    expect(result.ok ? [] : result.problems).toEqual([
      'extra: unknown field',
      'groups[1] (reports).addressList: a MANUAL group needs its addresses',
      'jobs[0] (#3).author: missing',
      'jobs[1] (#4).scheduleType: expected one of NONE, CRON, FIX_RATE, ONCE, got "HOURLY"',
      'jobs[1] (#4).executorTimeout: expected a whole number >= 0, got -1',
      'jobs[4] (#9).glue: unknown field',
      'jobs[5] (#4).scheduleType: expected one of NONE, CRON, FIX_RATE, ONCE, got "HOURLY"',
      'jobs[5] (#4).executorTimeout: expected a whole number >= 0, got -1',
      'workflows[0] (#2).nodes[1].upstream[0].condition: expected one of ON_SUCCESS, ON_FAILURE, ALWAYS, got "SOMETIMES"',
      'groups[2] (billing).appName: "billing" is listed twice',
      'jobs[5] (#4).appName: group "nowhere" is not in the document',
      'jobs[5] (#4).id: job #4 is listed twice',
      'jobs[2] (#5).childJobIds: the job names itself',
      'jobs[2] (#5).childJobIds: job #42 is not in the document',
      'jobs: child jobs make a cycle: #7 → #9 → #7',
      'workflows[0] (#2).nodes[0].jobId: job #5 is of group "billing", not the workflow\'s "reports"',
      'workflows[0] (#2).nodes[1].upstream: no node has the key "nope"',
    ]);
  });

  it('says what a file is when it is no export, and to update when a newer tickring wrote it', () => {
    expect(validateDocument([1])).toEqual({ ok: false, problems: ['the document must be one JSON object'] });
    expect(validateDocument({ groups: [] })).toEqual({
      ok: false,
      problems: ['format: expected "tickring-export" (a file written by `tickring export`), got nothing'],
    });
    const newer = validateDocument({ ...sample(), version: 2 });
    expect(newer.ok ? [] : newer.problems).toEqual([
      'version: 2 was written by a newer tickring; this command line reads version 1: update it',
    ]);
  });

  it('names wrong types in lists and nodes without stopping at the first', () => {
    const doc = sample();
    doc.jobs = [1, { ...doc.jobs[1], childJobIds: 'x' }];
    doc.workflows[0].nodes = [];
    doc.groups = 'none';
    const result = validateDocument(doc);
    expect(result.ok ? [] : result.problems).toEqual([
      'groups: expected an array, got "none"',
      'jobs[0]: expected an object, got 1',
      'jobs[1] (#4).childJobIds: expected an array of job ids, got "x"',
      'workflows[0] (#2).nodes: a workflow has at least one node',
      'jobs[1] (#4).appName: group "reports" is not in the document',
      'workflows[0] (#2).appName: group "reports" is not in the document',
    ]);
  });
});
