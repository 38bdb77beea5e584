import { describe, expect, it } from 'vitest';
import {
  adminApiUrl,
  MSG,
  ProtocolError,
  parseCallbackRequest,
  parseJobIdParam,
  parseLogParam,
  parseRegistryParam,
  parseTriggerParam,
  truncateHandleMsg,
} from './index.js';

describe('parseTriggerParam', () => {
  it('accepts null and missing fields the way Gson leaves them', () => {
    expect(
      parseTriggerParam({
        jobId: 4,
        logId: 9,
        executorHandler: 'demoJobHandler',
        executorParams: null,
        glueSource: null,
        glueType: null,
        executorBlockStrategy: null,
      }),
    ).toEqual({
      jobId: 4,
      executorHandler: 'demoJobHandler',
      executorParams: '',
      executorBlockStrategy: 'SERIAL_EXECUTION',
      executorTimeout: 0,
      logId: 9,
      logDateTime: 0,
      glueType: 'BEAN',
      glueSource: '',
      glueUpdatetime: 0,
      broadcastIndex: 0,
      broadcastTotal: 0,
    });
  });

  it('names the field that is missing or of the wrong type', () => {
    expect(() => parseTriggerParam({ logId: 1 })).toThrow(new ProtocolError('jobId is required', 'jobId'));
    expect(() => parseTriggerParam({ jobId: 1, logId: 'x' })).toThrow(/logId must be an integer/);
    expect(() => parseTriggerParam({ jobId: 1, logId: 2, executorParams: 5 })).toThrow(
      /executorParams must be a string/,
    );
    expect(() => parseTriggerParam(null)).toThrow(/TriggerParam must be a JSON object/);
  });
});

describe('parseLogParam', () => {
  it('accepts logDateTim (≤ 3.4) and logDateTime (3.5)', () => {
    expect(parseLogParam({ logDateTim: 5, logId: 1, fromLineNum: 2 })).toEqual({
      logDateTim: 5,
      logId: 1,
      fromLineNum: 2,
    });
    expect(parseLogParam({ logDateTime: 6, logId: 1, fromLineNum: 3 })).toEqual({
      logDateTim: 6,
      logId: 1,
      fromLineNum: 3,
    });
  });

  it('requires a numeric logId (it becomes a file name)', () => {
    expect(() => parseLogParam({ logDateTim: 5, logId: '../../etc/passwd', fromLineNum: 1 })).toThrow(
      /logId/,
    );
  });
});

describe('parseJobIdParam', () => {
  it('requires jobId', () => {
    expect(parseJobIdParam({ jobId: 3 })).toEqual({ jobId: 3 });
    expect(() => parseJobIdParam(null)).toThrow(ProtocolError);
  });
});

describe('truncateHandleMsg', () => {
  it('keeps short messages and cuts long ones to 50,000 characters plus "..."', () => {
    expect(truncateHandleMsg(undefined)).toBeUndefined();
    expect(truncateHandleMsg('short')).toBe('short');
    expect(truncateHandleMsg('z'.repeat(50_001))).toBe(`${'z'.repeat(50_000)}...`);
  });
});

describe('adminApiUrl', () => {
  it('joins base URLs with or without a context path and trailing slash', () => {
    expect(adminApiUrl('http://127.0.0.1:8080', 'callback')).toBe('http://127.0.0.1:8080/api/callback');
    expect(adminApiUrl('http://127.0.0.1:8080/', 'registry')).toBe('http://127.0.0.1:8080/api/registry');
    expect(adminApiUrl('http://host/xxl-job-admin', 'registryRemove')).toBe(
      'http://host/xxl-job-admin/api/registryRemove',
    );
    expect(adminApiUrl('http://host/xxl-job-admin//', 'callback')).toBe(
      'http://host/xxl-job-admin/api/callback',
    );
  });
});

describe('parseCallbackRequest', () => {
  it('reads the bare array of XXL-JOB 2.3–3.4 with the logDateTim typo', () => {
    expect(
      parseCallbackRequest([{ logId: 7, logDateTim: 1586629003729, handleCode: 200, handleMsg: 'done' }]),
    ).toEqual([{ logId: 7, logDateTime: 1586629003729, handleCode: 200, handleMsg: 'done' }]);
  });

  it('reads the {callbackList} body of XXL-JOB 3.5 with logDateTime spelled out', () => {
    expect(
      parseCallbackRequest({
        callbackList: [{ logId: 8, logDateTime: 1586629003729, handleCode: 502, handleMsg: 't' }],
      }),
    ).toEqual([{ logId: 8, logDateTime: 1586629003729, handleCode: 502, handleMsg: 't' }]);
  });

  it('reads the v2.2 item shape whose result is wrapped in executeResult', () => {
    expect(
      parseCallbackRequest([{ logId: 9, logDateTim: 1, executeResult: { code: 500, msg: 'boom' } }]),
    ).toEqual([{ logId: 9, logDateTime: 1, handleCode: 500, handleMsg: 'boom' }]);
  });

  it('takes numeric strings as Gson does, and an absent or null message as empty', () => {
    expect(parseCallbackRequest([{ logId: '10', handleCode: '200', handleMsg: null }])).toEqual([
      { logId: 10, logDateTime: 0, handleCode: 200, handleMsg: '' },
    ]);
  });

  it('accepts an empty batch', () => {
    expect(parseCallbackRequest([])).toEqual([]);
    expect(parseCallbackRequest({ callbackList: [] })).toEqual([]);
  });

  it.each([
    [{ logId: 1 }, 'the callback body must be a JSON array'],
    [{ callbackList: 'x' }, 'callbackList must be a JSON array'],
    ['text', 'the callback body must be a JSON array'],
    [[1], 'callbackList[0] must be a JSON object'],
    [[{ handleCode: 200 }], 'callbackList[0].logId is required'],
    [[{ logId: 0, handleCode: 200 }], 'callbackList[0].logId must be a positive integer'],
    [
      [
        { logId: 1, handleCode: 200 },
        { logId: 2.5, handleCode: 200 },
      ],
      'callbackList[1].logId must be an integer',
    ],
    [[{ logId: 1 }], 'callbackList[0].handleCode is required'],
    [[{ logId: 1, handleCode: 'ok' }], 'callbackList[0].handleCode must be an integer'],
  ])('rejects the whole batch %j with a message naming the item', (body, message) => {
    expect(() => parseCallbackRequest(body)).toThrow(ProtocolError);
    expect(() => parseCallbackRequest(body)).toThrow(message);
  });
});

describe('parseRegistryParam', () => {
  it('reads a RegistryParam', () => {
    expect(
      parseRegistryParam({
        registryGroup: 'EXECUTOR',
        registryKey: 'app',
        registryValue: ' http://10.0.0.1:9999/ ',
      }),
    ).toEqual({ registryGroup: 'EXECUTOR', registryKey: 'app', registryValue: 'http://10.0.0.1:9999/' });
  });

  it.each([
    [{ registryGroup: 'EXECUTOR', registryKey: 'app' }],
    [{ registryGroup: 'EXECUTOR', registryKey: ' ', registryValue: 'http://x/' }],
    [{ registryGroup: '', registryKey: 'app', registryValue: 'http://x/' }],
    [{ registryGroup: 'EXECUTOR', registryKey: 3, registryValue: 'http://x/' }],
    [[]],
    [null],
  ])('answers XXL-JOB\'s "Illegal Argument." to %j', (body) => {
    expect(() => parseRegistryParam(body)).toThrow(ProtocolError);
    expect(() => parseRegistryParam(body)).toThrow(MSG.illegalArgument);
  });

  it('refuses an address longer than 2048 characters, saying so', () => {
    expect(() =>
      parseRegistryParam({
        registryGroup: 'EXECUTOR',
        registryKey: 'a',
        registryValue: `http://${'x'.repeat(2048)}`,
      }),
    ).toThrow('registryValue is longer than 2048 characters');
  });
});
