import { RemovalPolicy } from 'aws-cdk-lib';
import * as logs from 'aws-cdk-lib/aws-logs';
import type { Node } from 'constructs';
import { DEFAULT_API_THROTTLE } from '../constructs/http-api.js';
import type { TickringStackProps } from './tickring-stack.js';

export const DEFAULT_STACK_NAME = 'Tickring';

/**
 * Context values (`cdk.json`, or `-c key=value` on the command line) map to stack props; values
 * from the command line arrive as strings, those in cdk.json as JSON, and both are accepted.
 * The keys are listed in README.md, "Deploy to AWS".
 */
export class ContextError extends Error {
  constructor(key: string, message: string) {
    super(`context value "${key}" ${message}`);
    this.name = 'ContextError';
  }
}

function raw(node: Node, key: string): unknown {
  const value = node.tryGetContext(key);
  return value === '' || value === null ? undefined : value;
}

function str(node: Node, key: string): string | undefined {
  const value = raw(node, key);
  if (value === undefined) return undefined;
  if (typeof value !== 'string')
    throw new ContextError(key, `must be a string, got ${JSON.stringify(value)}`);
  return value.trim() || undefined;
}

function bool(node: Node, key: string): boolean | undefined {
  const value = raw(node, key);
  if (value === undefined || typeof value === 'boolean') return value;
  if (value === 'true' || value === 'false') return value === 'true';
  throw new ContextError(key, `must be true or false, got ${JSON.stringify(value)}`);
}

function int(node: Node, key: string, min = 1, max = Number.MAX_SAFE_INTEGER): number | undefined {
  const value = raw(node, key);
  if (value === undefined) return undefined;
  const n = typeof value === 'number' ? value : typeof value === 'string' ? Number(value.trim()) : Number.NaN;
  if (!Number.isSafeInteger(n) || n < min || n > max) {
    throw new ContextError(key, `must be an integer from ${min} to ${max}, got ${JSON.stringify(value)}`);
  }
  return n;
}

function list(node: Node, key: string): string[] | undefined {
  const value = raw(node, key);
  if (value === undefined) return undefined;
  const items = Array.isArray(value) ? value : typeof value === 'string' ? value.split(',') : undefined;
  if (!items?.every((item) => typeof item === 'string')) {
    throw new ContextError(
      key,
      `must be a list of strings or a comma-separated string, got ${JSON.stringify(value)}`,
    );
  }
  const cleaned = items.map((item) => item.trim()).filter(Boolean);
  return cleaned.length ? cleaned : undefined;
}

function oneOf<T extends string>(node: Node, key: string, allowed: readonly T[]): T | undefined {
  const value = str(node, key);
  if (value === undefined) return undefined;
  const found = allowed.find((a) => a.toLowerCase() === value.toLowerCase());
  if (!found) throw new ContextError(key, `must be one of ${allowed.join(', ')}, got "${value}"`);
  return found;
}

const RETENTION_DAYS = new Set(
  Object.values(logs.RetentionDays).filter((v): v is number => typeof v === 'number'),
);

/** The stack's name and props from the app's context. */
export function stackPropsFromContext(node: Node): { stackName: string; props: TickringStackProps } {
  const stackName = str(node, 'stackName') ?? DEFAULT_STACK_NAME;
  const logRetentionDays = int(node, 'logRetentionDays');
  if (logRetentionDays !== undefined && !RETENTION_DAYS.has(logRetentionDays)) {
    throw new ContextError(
      'logRetentionDays',
      `must be a CloudWatch Logs retention (1, 3, 5, 7, 14, 30, 60, 90, ...)`,
    );
  }
  const removal = oneOf(node, 'removalPolicy', ['retain', 'destroy'] as const);
  const lambdaExecutorArns = list(node, 'lambdaExecutorArns');
  for (const arn of lambdaExecutorArns ?? []) {
    if (!/^arn:aws[a-z-]*:lambda:[a-z0-9-]+:\d{12}:function:[A-Za-z0-9_-]+(:[A-Za-z0-9_$-]+)?$/.test(arn)) {
      throw new ContextError('lambdaExecutorArns', `holds "${arn}", which is not a Lambda function ARN`);
    }
  }
  const consoleDomainNames = list(node, 'consoleDomainNames');
  const consoleCertificateArn = str(node, 'consoleCertificateArn');
  if ((consoleDomainNames === undefined) !== (consoleCertificateArn === undefined)) {
    const [given, missing] = consoleDomainNames
      ? ['consoleDomainNames', 'consoleCertificateArn']
      : ['consoleCertificateArn', 'consoleDomainNames'];
    throw new ContextError(given, `needs ${missing} too (the console's domain names and their certificate)`);
  }
  // CloudFront takes its certificates from ACM in us-east-1 only.
  if (
    consoleCertificateArn !== undefined &&
    !/^arn:aws[a-z-]*:acm:us-east-1:\d{12}:certificate\/[A-Za-z0-9-]+$/.test(consoleCertificateArn)
  ) {
    throw new ContextError(
      'consoleCertificateArn',
      `holds "${consoleCertificateArn}", which is not an ACM certificate ARN in us-east-1`,
    );
  }
  const rateLimit = int(node, 'apiRateLimit');
  const burstLimit = int(node, 'apiBurstLimit');
  const props: TickringStackProps = {
    stackName,
    description: 'tickring: XXL-JOB compatible scheduling center on Lambda, DynamoDB and SQS',
    env: { account: process.env.CDK_DEFAULT_ACCOUNT, region: process.env.CDK_DEFAULT_REGION },
    alarmEmail: str(node, 'alarmEmail'),
    deletionProtection: bool(node, 'deletionProtection'),
    removalPolicy:
      removal === undefined
        ? undefined
        : removal === 'destroy'
          ? RemovalPolicy.DESTROY
          : RemovalPolicy.RETAIN,
    logRetention: logRetentionDays as logs.RetentionDays | undefined,
    logLevel: oneOf(node, 'logLevel', ['DEBUG', 'INFO', 'WARN', 'ERROR'] as const),
    tracing: bool(node, 'tracing'),
    dispatcherMaxConcurrency: int(node, 'dispatcherMaxConcurrency', 2, 1000),
    lambdaExecutorArns,
    apiThrottle:
      rateLimit === undefined && burstLimit === undefined
        ? undefined
        : {
            rateLimit: rateLimit ?? DEFAULT_API_THROTTLE.rateLimit,
            burstLimit: burstLimit ?? DEFAULT_API_THROTTLE.burstLimit,
          },
    httpAllowList: list(node, 'httpAllowList'),
    consoleDomain:
      consoleDomainNames && consoleCertificateArn
        ? { domainNames: consoleDomainNames, certificateArn: consoleCertificateArn }
        : undefined,
    settings: {
      shardCount: int(node, 'shardCount'),
      preReadCount: int(node, 'preReadCount'),
      planAheadSeconds: int(node, 'planAheadSeconds', 5),
      leaseMs: int(node, 'leaseMs', 1000),
      executorTimeoutMs: int(node, 'executorTimeoutMs'),
      registryDeadSeconds: int(node, 'registryDeadSeconds'),
      logRetentionDays: int(node, 'runLogRetentionDays'),
    },
  };
  return { stackName, props };
}
