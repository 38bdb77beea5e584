import {
  CreateTableCommand,
  DescribeTableCommand,
  ResourceInUseException,
  UpdateTimeToLiveCommand,
} from '@aws-sdk/client-dynamodb';
import { CreateTopicCommand } from '@aws-sdk/client-sns';
import { CreateQueueCommand, GetQueueAttributesCommand } from '@aws-sdk/client-sqs';
import type { AwsClients } from '@tickring/aws/clients';
import {
  createTableInput,
  QUEUE_LIST,
  type QueueName,
  TABLE_LIST,
  type TableDefinition,
  type TableName,
} from '@tickring/aws/topology';

export interface QueueResources {
  readonly url: string;
  readonly arn: string;
  readonly dlqUrl: string;
  readonly dlqArn: string;
}

/** Physical names of everything the functions use, as the CDK stack would hand them over. */
export interface Resources {
  readonly tables: Readonly<Record<TableName, string>>;
  readonly queues: Readonly<Record<QueueName, QueueResources>>;
  readonly alarmTopicArn: string;
}

/**
 * Creates the tables, queues and alarm topic from the shared definitions, each name prefixed so
 * several stacks (or tests) can share one pair of stand-ins. Idempotent: existing ones are kept.
 */
export async function provisionResources(
  clients: AwsClients,
  prefix: string,
  options: { readonly ringVisibilitySeconds?: number } = {},
): Promise<Resources> {
  const tableEntries = await Promise.all(
    TABLE_LIST.map(async (def) => [
      def.logicalName,
      await ensureTable(clients, `${prefix}${def.logicalName}`, def),
    ]),
  );
  const queueEntries = await Promise.all(
    QUEUE_LIST.map(async (def) => {
      const dlq = await ensureQueue(clients, `${prefix}${def.deadLetter.baseName}`, {
        MessageRetentionPeriod: String(def.deadLetter.retentionSeconds),
      });
      const main = await ensureQueue(clients, `${prefix}${def.baseName}`, {
        VisibilityTimeout: String(options.ringVisibilitySeconds ?? def.visibilityTimeoutSeconds),
        MessageRetentionPeriod: String(def.retentionSeconds),
        RedrivePolicy: JSON.stringify({
          deadLetterTargetArn: dlq.arn,
          maxReceiveCount: def.deadLetter.maxReceiveCount,
        }),
      });
      return [def.logicalName, { url: main.url, arn: main.arn, dlqUrl: dlq.url, dlqArn: dlq.arn }];
    }),
  );
  const topic = await clients.sns.send(new CreateTopicCommand({ Name: `${prefix}alarms` }));
  return {
    tables: Object.fromEntries(tableEntries) as Record<TableName, string>,
    queues: Object.fromEntries(queueEntries) as Record<QueueName, QueueResources>,
    alarmTopicArn: topic.TopicArn ?? '',
  };
}

async function ensureTable(clients: AwsClients, tableName: string, def: TableDefinition): Promise<string> {
  try {
    await clients.dynamo.send(new CreateTableCommand(createTableInput(def, tableName)));
    if (def.ttlAttribute) {
      await clients.dynamo.send(
        new UpdateTimeToLiveCommand({
          TableName: tableName,
          TimeToLiveSpecification: { AttributeName: def.ttlAttribute, Enabled: true },
        }),
      );
    }
  } catch (err) {
    if (!(err instanceof ResourceInUseException)) throw err;
  }
  await waitForActive(clients, tableName);
  return tableName;
}

async function waitForActive(clients: AwsClients, tableName: string): Promise<void> {
  for (let attempt = 0; attempt < 100; attempt++) {
    const { Table } = await clients.dynamo.send(new DescribeTableCommand({ TableName: tableName }));
    if (Table?.TableStatus === 'ACTIVE') return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`Table ${tableName} did not become ACTIVE`);
}

async function ensureQueue(
  clients: AwsClients,
  queueName: string,
  attributes: Record<string, string>,
): Promise<{ url: string; arn: string }> {
  const created = await clients.sqs.send(
    new CreateQueueCommand({ QueueName: queueName, Attributes: attributes }),
  );
  const url = created.QueueUrl ?? '';
  const { Attributes } = await clients.sqs.send(
    new GetQueueAttributesCommand({ QueueUrl: url, AttributeNames: ['QueueArn'] }),
  );
  return { url, arn: Attributes?.QueueArn ?? '' };
}
