import { tableEnvName } from '@tickring/aws/clients';
import { TABLE_LIST } from '@tickring/aws/topology';
import { ENV } from '@tickring/core/config';
import type { Resources } from './provision.js';

export interface FunctionEnvOptions {
  readonly region: string;
  readonly endpoints: { readonly dynamodb: string; readonly sqs: string; readonly lambda: string };
  readonly resources: Resources;
  readonly adminToken: string;
  readonly accessToken: string;
  readonly tokenKey: string;
  readonly adminBaseUrl: string;
  /** Any further settings (TICKRING_SHARD_COUNT, ...), as the stack's context would pass them. */
  readonly settings?: Readonly<Record<string, string>>;
}

/**
 * The environment the functions get, with the same variable names the CDK stack sets; in local
 * mode the tokens are given directly instead of as Secrets Manager ARNs.
 */
export function functionEnv(options: FunctionEnvOptions): Record<string, string> {
  const { resources } = options;
  const env: Record<string, string> = {
    [ENV.region]: options.region,
    [ENV.dynamoEndpoint]: options.endpoints.dynamodb,
    [ENV.sqsEndpoint]: options.endpoints.sqs,
    [ENV.snsEndpoint]: options.endpoints.sqs,
    [ENV.lambdaEndpoint]: options.endpoints.lambda,
    [ENV.ringFastQueueUrl]: resources.queues.ringFast.url,
    [ENV.ringSlowQueueUrl]: resources.queues.ringSlow.url,
    [ENV.alarmTopicArn]: resources.alarmTopicArn,
    [ENV.adminToken]: options.adminToken,
    [ENV.accessToken]: options.accessToken,
    [ENV.tokenKey]: options.tokenKey,
    [ENV.adminAddresses]: options.adminBaseUrl,
    ...options.settings,
  };
  for (const table of TABLE_LIST) env[tableEnvName(table.logicalName)] = resources.tables[table.logicalName];
  return env;
}
