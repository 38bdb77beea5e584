import { ENV, type Env, optionalString, requireString } from '@tickring/core/config';
import type { TableName } from '../topology/tables.js';

/** Endpoints of local stand-ins; absent in AWS, where the SDK's defaults apply. */
export interface AwsEndpoints {
  readonly dynamodb?: string;
  readonly sqs?: string;
  readonly lambda?: string;
  readonly sns?: string;
}

export interface AwsClientOptions {
  readonly region: string;
  readonly endpoints?: AwsEndpoints;
}

/** Region, plus stand-in endpoints in local mode (absent in AWS). */
export function loadAwsConfig(env: Env): AwsClientOptions {
  return {
    region: optionalString(env, ENV.region) ?? 'us-east-1',
    endpoints: {
      dynamodb: optionalString(env, ENV.dynamoEndpoint),
      sqs: optionalString(env, ENV.sqsEndpoint),
      lambda: optionalString(env, ENV.lambdaEndpoint),
      sns: optionalString(env, ENV.snsEndpoint),
    },
  };
}

const TABLE_ENV: Readonly<Record<TableName, string>> = {
  jobs: ENV.jobsTable,
  groups: ENV.groupsTable,
  runs: ENV.runsTable,
  registry: ENV.registryTable,
  control: ENV.controlTable,
  principals: ENV.principalsTable,
  audit: ENV.auditTable,
  workflows: ENV.workflowsTable,
  calendars: ENV.calendarsTable,
  backfills: ENV.backfillsTable,
  alerts: ENV.alertsTable,
};

/** The env var that carries each table's physical name (set by infra/ and by the local stack). */
export function tableEnvName(table: TableName): string {
  return TABLE_ENV[table];
}

export function loadTables<T extends TableName>(env: Env, names: readonly T[]): Record<T, string> {
  return Object.fromEntries(names.map((name) => [name, requireString(env, TABLE_ENV[name])])) as Record<
    T,
    string
  >;
}

export function loadRingQueueUrls(env: Env): { fast: string; slow: string } {
  return { fast: requireString(env, ENV.ringFastQueueUrl), slow: requireString(env, ENV.ringSlowQueueUrl) };
}
