import { ConfigError, ENV } from '@tickring/core/config';
import { SCRYPT_DEFAULTS } from '@tickring/core/identity';
import { describe, expect, it } from 'vitest';
import { loadConfig } from './config.js';

const tables = {
  [ENV.jobsTable]: 'jobs',
  [ENV.groupsTable]: 'groups',
  [ENV.controlTable]: 'control',
  [ENV.runsTable]: 'runs',
  [ENV.registryTable]: 'registry',
  [ENV.principalsTable]: 'principals',
  [ENV.auditTable]: 'audit',
  [ENV.workflowsTable]: 'workflows',
  [ENV.calendarsTable]: 'calendars',
  [ENV.backfillsTable]: 'backfills',
  [ENV.alertsTable]: 'alerts',
};
const required = {
  ...tables,
  [ENV.ringFastQueueUrl]: 'http://sqs/fast',
  [ENV.ringSlowQueueUrl]: 'http://sqs/slow',
  [ENV.alarmTopicArn]: 'arn:aws:sns:us-east-1:000000000000:alarms',
  [ENV.accessToken]: 'acc3ss',
  [ENV.tokenKey]: 'k3y',
};

describe('api loadConfig', () => {
  it('reads the tables, the queues, the shard count (default 4) and direct tokens', () => {
    expect(loadConfig({ ...required, [ENV.adminToken]: 't0ken' })).toMatchObject({
      store: {
        kind: 'dynamodb',
        tables: { jobs: 'jobs', groups: 'groups', control: 'control', runs: 'runs', registry: 'registry' },
        queueUrls: { fast: 'http://sqs/fast', slow: 'http://sqs/slow' },
        alarmTopicArn: 'arn:aws:sns:us-east-1:000000000000:alarms',
      },
      shardCount: 4,
      adminToken: { value: 't0ken' },
      accessToken: { value: 'acc3ss' },
      tokenKey: { value: 'k3y' },
    });
  });

  it('defaults the executor timeout (3 s), the registry dead timeout (90 s) and the log retention (30 days)', () => {
    expect(loadConfig({ ...required, [ENV.adminToken]: 't' })).toMatchObject({
      executorTimeoutMs: 3_000,
      registryDeadSeconds: 90,
      logRetentionDays: 30,
    });
    expect(
      loadConfig({
        ...required,
        [ENV.adminToken]: 't',
        [ENV.registryDeadSeconds]: '5',
        [ENV.logRetentionDays]: '7',
        [ENV.executorTimeoutMs]: '1500',
      }),
    ).toMatchObject({ executorTimeoutMs: 1_500, registryDeadSeconds: 5, logRetentionDays: 7 });
    expect(() => loadConfig({ ...required, [ENV.adminToken]: 't', [ENV.registryDeadSeconds]: '0' })).toThrow(
      ENV.registryDeadSeconds,
    );
  });

  it("hashes new passwords at scrypt's production cost (2^15) unless told, never below 2^10 or above 2^20", () => {
    const withCost = (cost?: string) =>
      loadConfig({
        ...required,
        [ENV.adminToken]: 't',
        ...(cost === undefined ? {} : { [ENV.passwordHashCost]: cost }),
      });
    expect(withCost().passwordHashCost).toBe(15);
    expect(2 ** withCost().passwordHashCost).toBe(SCRYPT_DEFAULTS.N);
    expect(withCost('10').passwordHashCost).toBe(10);
    expect(() => withCost('9')).toThrow(`${ENV.passwordHashCost} must be an integer >= 10, got "9"`);
    expect(() => withCost('21')).toThrow(
      `${ENV.passwordHashCost} must be an integer from 10 to 20, got "21"`,
    );
    expect(() => withCost('12.5')).toThrow(ENV.passwordHashCost);
  });

  it('takes the tokens as secret ARNs', () => {
    const arn = 'arn:aws:secretsmanager:us-east-1:000000000000:secret:admin';
    const accessArn = 'arn:aws:secretsmanager:us-east-1:000000000000:secret:access';
    const { [ENV.accessToken]: _direct, ...withoutAccess } = required;
    const config = loadConfig({
      ...withoutAccess,
      [ENV.adminTokenSecretArn]: arn,
      [ENV.accessTokenSecretArn]: accessArn,
    });
    expect(config.adminToken).toEqual({ secretArn: arn });
    expect(config.accessToken).toEqual({ secretArn: accessArn });
  });

  it('takes the edge secret as a secret ARN, and has none when it is not set (the local stack)', () => {
    const arn = 'arn:aws:secretsmanager:us-east-1:000000000000:secret:edge';
    const config = loadConfig({ ...required, [ENV.adminToken]: 't', [ENV.edgeSecretArn]: arn });
    expect(config.edgeSecret).toEqual({ secretArn: arn });
    expect(loadConfig({ ...required, [ENV.adminToken]: 't' })).not.toHaveProperty('edgeSecret');
    expect(loadConfig({ ...required, [ENV.adminToken]: 't', [ENV.edgeSecretArn]: ' ' })).not.toHaveProperty(
      'edgeSecret',
    );
  });

  it('fails to start without a token or the token key (tokens fail closed)', () => {
    expect(() => loadConfig(required)).toThrow(ConfigError);
    const { [ENV.tokenKey]: _key, ...withoutKey } = required;
    expect(() => loadConfig({ ...withoutKey, [ENV.adminToken]: 'x' })).toThrow(ENV.tokenKey);
    expect(() => loadConfig({ ...required, [ENV.adminToken]: '  ' })).toThrow(ENV.adminToken);
    const { [ENV.accessToken]: _direct, ...withoutAccess } = required;
    expect(() => loadConfig({ ...withoutAccess, [ENV.adminToken]: 'x' })).toThrow(ENV.accessToken);
  });

  it('names a missing table or queue variable', () => {
    expect(() => loadConfig({ [ENV.adminToken]: 'x', [ENV.jobsTable]: 'jobs' })).toThrow(ENV.groupsTable);
    const { [ENV.runsTable]: _runs, ...withoutRuns } = required;
    expect(() => loadConfig({ ...withoutRuns, [ENV.adminToken]: 'x' })).toThrow(ENV.runsTable);
    const { [ENV.ringFastQueueUrl]: _fast, ...withoutFast } = required;
    expect(() => loadConfig({ ...withoutFast, [ENV.adminToken]: 'x' })).toThrow(ENV.ringFastQueueUrl);
  });
});
