import { describe, expect, it } from 'vitest';
import {
  adminApiUrl,
  ProtocolError,
  parseJobIdParam,
  parseLogParam,
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
