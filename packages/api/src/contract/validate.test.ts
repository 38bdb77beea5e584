import { describe, expect, it } from 'vitest';
import { RequestValidationError } from '../http/validation.js';
import { API } from './routes.js';

type Route = (typeof API)[keyof typeof API];

function check(route: Route, req: { params?: object; query?: object; body?: unknown }) {
  return route.validate({ params: {}, query: {}, ...req } as never);
}

/** The problems a request is refused for (none when it passes). */
function problems(route: Route, req: { params?: object; query?: object; body?: unknown }) {
  try {
    check(route, req);
    return [];
  } catch (err) {
    expect(err).toBeInstanceOf(RequestValidationError);
    return [...(err as RequestValidationError).problems];
  }
}

const job = { appName: 'my-app', name: 'report', author: 'ops', executorHandler: 'h' };

describe('request validation from the route table', () => {
  it('reports every structural problem of a body at once, each naming its field', () => {
    const found = problems(API.createJob, {
      body: {
        appName: 'my-app',
        scheduleType: 'HOURLY',
        executorTimeout: -1,
        childJobIds: [1, 'b'],
        executorParam: 'p'.repeat(2049),
        executorHandlr: 'x',
      },
    });
    expect(found).toEqual([
      { field: 'name', message: "name is required (or jobDesc, XXL-JOB's name for it)" },
      { field: 'author', message: 'author is required' },
      {
        field: 'executorHandlr',
        message: expect.stringMatching(/^unknown field "executorHandlr"; the job fields are appName, name, /),
      },
      {
        field: 'scheduleType',
        message: 'scheduleType must be one of NONE, CRON, FIX_RATE, ONCE; got "HOURLY"',
      },
      {
        field: 'executorParam',
        message: 'executorParam must be at most 2048 characters; got 2049 characters',
      },
      { field: 'executorTimeout', message: 'executorTimeout must be an integer >= 0; got -1' },
      { field: 'childJobIds', message: 'childJobIds[1] must be an integer >= 1; got "b"' },
    ]);
  });

  it('joins them in the error: message lists all, field is the first', () => {
    try {
      check(API.listRuns, { query: { limit: 'ten', status: 'done' } });
      expect.unreachable();
    } catch (err) {
      const e = err as RequestValidationError;
      expect(e.name).toBe('ValidationError');
      expect(e.field).toBe('status');
      expect(e.message).toBe(
        'status must be one of running, success, fail, skipped; got "done"; limit must be an integer between 1 and 100; got "ten"',
      );
    }
  });

  it('checks path, query and body together', () => {
    const found = problems(API.triggerJob, { params: { id: 'x' }, body: { executorParams: 'y' } });
    expect(found.map((p) => p.field)).toEqual(['id', 'executorParams']);
    expect(found[0]?.message).toBe('id must be an integer >= 1; got "x"');
    expect(found[1]?.message).toBe(
      'unknown field "executorParams"; the trigger fields are executorParam, addressList',
    );
  });

  it('reads whole numbers from the path and query, fills defaults and drops empty query values', () => {
    expect(check(API.getJob, { params: { id: '7' } }).params).toEqual({ id: 7 });
    expect(
      check(API.listRuns, { query: { jobId: '7', from: '2030-01-01T00:00:00Z', to: '' } }).query,
    ).toEqual({
      jobId: 7,
      from: '2030-01-01T00:00:00Z',
      limit: 20,
    });
    expect(check(API.dashboard, {}).query).toEqual({ days: 7 });
    expect(check(API.getActivity, {}).query).toEqual({ window: '1h' });
    expect(check(API.getActivity, { query: { window: '24h', appName: 'a' } }).query).toEqual({
      window: '24h',
      appName: 'a',
    });
    expect(problems(API.getActivity, { query: { window: '2h' } })).toEqual([
      { field: 'window', message: expect.stringContaining('1h, 6h, 24h') },
    ]);
    expect(problems(API.getRun, { params: { logId: '1.5' } })).toEqual([
      { field: 'logId', message: 'logId must be an integer >= 1; got "1.5"' },
    ]);
    expect(problems(API.listRuns, { query: { to: '2030-01-01' } })).toEqual([
      {
        field: 'to',
        message: 'to must be an ISO-8601 date-time such as 2030-01-01T00:00:00Z; got "2030-01-01"',
      },
    ]);
  });

  it('says a required query parameter is required, once', () => {
    expect(problems(API.previewSchedule, { query: { count: '0' } })).toEqual([
      { field: 'scheduleType', message: 'scheduleType is required' },
      { field: 'count', message: 'count must be an integer between 1 and 100; got 0' },
    ]);
  });

  it('refuses a body that is not an object, or a missing one where it is required', () => {
    expect(problems(API.createJob, { body: [1, 2] })).toEqual([
      { field: 'body', message: 'the body must be a JSON object; got [1,2]' },
    ]);
    expect(problems(API.createGroup, {})).toEqual([
      { field: 'body', message: 'the body must be a JSON object; got nothing' },
    ]);
    expect(problems(API.triggerJob, { params: { id: '1' }, body: [1] })).toEqual([
      { field: 'body', message: 'the body must be a JSON object (or empty); got [1]' },
    ]);
  });

  it('takes an absent or null body where it is optional', () => {
    expect(check(API.triggerJob, { params: { id: '1' } }).body).toBeUndefined();
    expect(check(API.triggerJob, { params: { id: '1' }, body: null }).body).toBeNull();
    expect(check(API.setGroupAccessToken, { params: { appName: 'my-app' }, body: {} }).body).toEqual({});
  });

  it("takes XXL-JOB's aliases and addressList as a comma-separated string", () => {
    expect(
      problems(API.createJob, { body: { jobGroup: 'my-app', jobDesc: 'x', author: 'y', childJobId: '1,2' } }),
    ).toEqual([]);
    expect(problems(API.createJob, { body: { ...job, jobGroup: 3 } })).toEqual([
      {
        field: 'jobGroup',
        message:
          'jobGroup must be the group’s appName, a string of at most 64 characters (XXL-JOB’s numeric group id has no meaning here); got 3',
      },
    ]);
    const group = { appName: 'my-app', title: 't', addressType: 'MANUAL' };
    expect(problems(API.createGroup, { body: { ...group, addressList: 'http://a:1,http://b:2' } })).toEqual(
      [],
    );
    expect(problems(API.createGroup, { body: { ...group, addressList: 42 } })).toEqual([
      {
        field: 'addressList',
        message:
          'addressList must be an array of executor addresses (http(s) URLs or lambda:<function>) or a comma-separated string of them; got 42',
      },
    ]);
    expect(problems(API.createGroup, { body: { ...group, addressList: ['http://a:1', 5] } })).toEqual([
      { field: 'addressList', message: 'addressList[1] must be a string; got 5' },
    ]);
  });

  it('names the group rules in one message', () => {
    expect(
      problems(API.createGroup, { body: { appName: 'ab', title: 't'.repeat(65), addressType: 'STATIC' } }),
    ).toEqual([
      {
        field: 'appName',
        message: "appName must be 4-64 characters of letters, digits, '_', '.' and '-'; got \"ab\"",
      },
      { field: 'title', message: 'title must be at most 64 characters; got 65 characters' },
      { field: 'addressType', message: 'addressType must be one of AUTO, MANUAL; got "STATIC"' },
    ]);
  });

  it('lets a job or group read with GET be sent back whole (read-only fields pass)', () => {
    const read = {
      id: 7,
      ...job,
      alarmEmail: '',
      alarmWebhook: '',
      scheduleType: 'NONE',
      scheduleConf: '',
      timeZone: 'UTC',
      misfireStrategy: 'DO_NOTHING',
      executorRouteStrategy: 'FIRST',
      executorParam: '',
      executorBlockStrategy: 'SERIAL_EXECUTION',
      executorTimeout: 0,
      executorFailRetryCount: 0,
      retryBackoffSeconds: 10,
      glueType: 'BEAN',
      glueSource: '',
      childJobIds: [],
      triggerStatus: 'STOPPED',
      triggerNextTime: null,
      triggerLastTime: null,
      glueUpdatetime: '2030-01-01T00:00:00.000Z',
      scheduleRevision: 1,
      version: 1,
      createdAt: '2030-01-01T00:00:00.000Z',
      updatedAt: '2030-01-01T00:00:00.000Z',
    };
    expect(problems(API.updateJob, { params: { id: '7' }, body: read })).toEqual([]);
    expect(problems(API.createJob, { body: read })).toEqual([]);
    const group = {
      appName: 'my-app',
      title: 't',
      addressType: 'AUTO',
      addressList: ['http://10.0.0.5:9999/'],
      accessTokenSetAt: null,
      createdAt: '2030-01-01T00:00:00.000Z',
      updatedAt: '2030-01-01T00:00:00.000Z',
    };
    expect(problems(API.updateGroup, { params: { appName: 'my-app' }, body: group })).toEqual([]);
  });

  it('leaves semantic checks to the domain (a cron that does not parse passes the structure)', () => {
    expect(
      problems(API.createJob, { body: { ...job, scheduleType: 'CRON', scheduleConf: '61 * * * * ?' } }),
    ).toEqual([]);
  });
});
