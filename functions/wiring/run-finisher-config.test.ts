import { ConfigError, ENV } from '@tickring/core/config';
import { describe, expect, it } from 'vitest';
import { loadConfig as loadMonitorsConfig } from '../monitors/config.js';
import { loadRunFinisherConfig } from './run-finisher-config.js';

const required = {
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
  [ENV.alarmTopicArn]: 'arn:aws:sns:us-east-1:000000000000:alarms',
  [ENV.accessToken]: 'acc3ss',
  [ENV.tokenKey]: 'k3y',
};

describe('loadRunFinisherConfig (the callback and the monitors)', () => {
  it('reads the tables, the queues, the alarm topic and the tokens, with the settings at their defaults', () => {
    expect(loadRunFinisherConfig(required)).toEqual({
      aws: { region: 'us-east-1', endpoints: {} },
      store: {
        kind: 'dynamodb',
        tables: {
          jobs: 'jobs',
          groups: 'groups',
          runs: 'runs',
          registry: 'registry',
          control: 'control',
          workflows: 'workflows',
          audit: 'audit',
          alerts: 'alerts',
        },
        queueUrls: { fast: 'http://sqs/fast', slow: 'http://sqs/slow' },
        alarmTopicArn: 'arn:aws:sns:us-east-1:000000000000:alarms',
      },
      accessToken: { value: 'acc3ss' },
      tokenKey: { value: 'k3y' },
      registryDeadSeconds: 90,
      shardCount: 4,
      logRetentionDays: 30,
      auditRetentionDays: 365,
    });
  });

  it('fails to start without the access token or the token key (tokens fail closed)', () => {
    const { [ENV.accessToken]: _access, ...withoutAccess } = required;
    const { [ENV.tokenKey]: _key, ...withoutKey } = required;
    expect(() => loadRunFinisherConfig(withoutAccess)).toThrow(ConfigError);
    expect(() => loadRunFinisherConfig(withoutKey)).toThrow(ConfigError);
  });

  it('is what the monitors read too, beside their own timings, the backfills and the calendars', () => {
    const finisher = loadRunFinisherConfig(required);
    const monitors = loadMonitorsConfig({
      ...required,
      [ENV.backfillsTable]: 'backfills',
      [ENV.calendarsTable]: 'calendars',
      [ENV.lostRunSettleSeconds]: '2',
    });
    expect(monitors.store).toEqual({
      ...finisher.store,
      tables: {
        ...(finisher.store.kind === 'dynamodb' ? finisher.store.tables : {}),
        backfills: 'backfills',
        calendars: 'calendars',
      },
    });
    expect(monitors).toMatchObject({
      ...finisher,
      store: monitors.store,
      lostRunSettleMs: 2_000,
      workflowStalledMs: 60_000,
      executorTimeoutMs: 3_000,
    });
  });
});
