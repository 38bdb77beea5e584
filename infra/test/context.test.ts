import { ENV } from '@tickring/core/config';
import { App, RemovalPolicy } from 'aws-cdk-lib';
import * as logs from 'aws-cdk-lib/aws-logs';
import { describe, expect, it } from 'vitest';
import { ContextError, DEFAULT_STACK_NAME, stackPropsFromContext } from '../stacks/context.js';
import { settingsEnv } from '../stacks/settings.js';

const fromContext = (context: Record<string, unknown>) => stackPropsFromContext(new App({ context }).node);

describe('stack props from context', () => {
  it('names the stack Tickring and leaves every prop to its default when the context is empty', () => {
    const { stackName, props } = fromContext({});
    expect(stackName).toBe(DEFAULT_STACK_NAME);
    expect(props.deletionProtection).toBeUndefined();
    expect(props.alarmEmail).toBeUndefined();
    expect(props.lambdaExecutorArns).toBeUndefined();
    expect(props.apiThrottle).toBeUndefined();
    expect(props.consoleDomain).toBeUndefined();
  });

  it("reads the console's domain names and their us-east-1 certificate, as a pair", () => {
    const certificateArn =
      'arn:aws:acm:us-east-1:123456789012:certificate/0a1b2c3d-0000-4000-8000-000000000000';
    const { props } = fromContext({
      consoleDomainNames: 'console.example.com, jobs.example.com',
      consoleCertificateArn: certificateArn,
    });
    expect(props.consoleDomain).toEqual({
      domainNames: ['console.example.com', 'jobs.example.com'],
      certificateArn,
    });
  });

  it('reads command-line strings (-c key=value) as well as cdk.json JSON values', () => {
    const { stackName, props } = fromContext({
      stackName: 'TickringTest',
      alarmEmail: 'ops@example.com',
      deletionProtection: 'false',
      removalPolicy: 'destroy',
      logRetentionDays: '14',
      dispatcherMaxConcurrency: 20,
      lambdaExecutorArns:
        'arn:aws:lambda:eu-west-1:123456789012:function:a, arn:aws:lambda:eu-west-1:123456789012:function:b:live',
      apiRateLimit: '50',
      shardCount: '8',
      runLogRetentionDays: 7,
    });
    expect(stackName).toBe('TickringTest');
    expect(props).toMatchObject({
      stackName: 'TickringTest',
      alarmEmail: 'ops@example.com',
      deletionProtection: false,
      removalPolicy: RemovalPolicy.DESTROY,
      logRetention: logs.RetentionDays.TWO_WEEKS,
      dispatcherMaxConcurrency: 20,
      lambdaExecutorArns: [
        'arn:aws:lambda:eu-west-1:123456789012:function:a',
        'arn:aws:lambda:eu-west-1:123456789012:function:b:live',
      ],
      apiThrottle: { rateLimit: 50, burstLimit: 400 },
      settings: { shardCount: 8, logRetentionDays: 7 },
    });
  });

  it.each([
    [{ deletionProtection: 'no' }, /deletionProtection.*true or false/],
    [{ dispatcherMaxConcurrency: 1 }, /dispatcherMaxConcurrency.*from 2 to 1000/],
    [{ logRetentionDays: 31 }, /logRetentionDays.*retention/],
    [{ lambdaExecutorArns: 'my-function' }, /lambdaExecutorArns.*not a Lambda function ARN/],
    [{ removalPolicy: 'snapshot' }, /removalPolicy.*retain, destroy/],
    [{ shardCount: '0' }, /shardCount/],
    [{ consoleDomainNames: 'console.example.com' }, /consoleDomainNames.*needs consoleCertificateArn/],
    [
      { consoleCertificateArn: 'arn:aws:acm:us-east-1:123456789012:certificate/abc' },
      /consoleCertificateArn.*needs consoleDomainNames/,
    ],
    [
      {
        consoleDomainNames: 'console.example.com',
        consoleCertificateArn: 'arn:aws:acm:eu-west-1:123456789012:certificate/abc',
      },
      /consoleCertificateArn.*not an ACM certificate ARN in us-east-1/,
    ],
  ])('refuses a bad context value %o, naming it', (context, message) => {
    expect(() => fromContext(context)).toThrow(ContextError);
    expect(() => fromContext(context)).toThrow(message);
  });
});

describe('settings env', () => {
  it('always sets the shard count on the functions that file jobs, and other settings only when given', () => {
    expect(settingsEnv({}, 'scheduler-tick')).toEqual({ [ENV.shardCount]: '4' });
    expect(settingsEnv({}, 'executor-runner')).toEqual({});
    expect(settingsEnv({ preReadCount: 100, registryDeadSeconds: 60 }, 'scheduler-tick')).toEqual({
      [ENV.shardCount]: '4',
      [ENV.preReadCount]: '100',
    });
    expect(settingsEnv({ preReadCount: 100, registryDeadSeconds: 60 }, 'callback')).toEqual({
      [ENV.shardCount]: '4',
      [ENV.registryDeadSeconds]: '60',
    });
  });
});
