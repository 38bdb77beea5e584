import { tableEnvName } from '@tickring/aws/clients';
import { TABLE_LIST } from '@tickring/aws/topology';
import { ENV } from '@tickring/core/config';
import type { Resources } from './provision.js';

interface CommonEnvOptions {
  readonly region: string;
  readonly adminToken: string;
  readonly accessToken: string;
  readonly tokenKey: string;
  readonly adminBaseUrl: string;
  /** Any further settings (TICKRING_SHARD_COUNT, ...), as the stack's context would pass them. */
  readonly settings?: Readonly<Record<string, string>>;
}

/** The functions on DynamoDB Local and the SQS stand-in (the SNS endpoint is the stand-in's too). */
export interface DynamoFunctionEnvOptions extends CommonEnvOptions {
  readonly endpoints: { readonly dynamodb: string; readonly sqs: string; readonly lambda: string };
  readonly resources: Resources;
}

/** The functions on the embedded engine: every store and the ring in one SQLite file. */
export interface SqliteFunctionEnvOptions extends CommonEnvOptions {
  readonly endpoints: { readonly lambda: string };
  readonly sqliteFile: string;
}

export type FunctionEnvOptions = DynamoFunctionEnvOptions | SqliteFunctionEnvOptions;

/**
 * The environment the functions get, with the same variable names the CDK stack sets; in local
 * mode the tokens are given directly instead of as Secrets Manager ARNs. On SQLite there are no
 * tables, queues or topic to name: `TICKRING_STORE=sqlite` and the database file instead.
 */
export function functionEnv(options: FunctionEnvOptions): Record<string, string> {
  const env: Record<string, string> = {
    [ENV.region]: options.region,
    [ENV.lambdaEndpoint]: options.endpoints.lambda,
    [ENV.adminToken]: options.adminToken,
    [ENV.accessToken]: options.accessToken,
    [ENV.tokenKey]: options.tokenKey,
    [ENV.adminAddresses]: options.adminBaseUrl,
  };
  if ('sqliteFile' in options) {
    Object.assign(env, { [ENV.store]: 'sqlite', [ENV.sqliteFile]: options.sqliteFile });
  } else {
    const { resources, endpoints } = options;
    Object.assign(env, {
      [ENV.dynamoEndpoint]: endpoints.dynamodb,
      [ENV.sqsEndpoint]: endpoints.sqs,
      [ENV.snsEndpoint]: endpoints.sqs,
      [ENV.ringFastQueueUrl]: resources.queues.ringFast.url,
      [ENV.ringSlowQueueUrl]: resources.queues.ringSlow.url,
      [ENV.alarmTopicArn]: resources.alarmTopicArn,
    });
  }
  Object.assign(env, options.settings);
  if ('resources' in options) {
    for (const table of TABLE_LIST)
      env[tableEnvName(table.logicalName)] = options.resources.tables[table.logicalName];
  }
  return env;
}
