import { FUNCTIONS, type FunctionName } from '@tickring/aws/topology';
import { Stack } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { describe, expect, it } from 'vitest';
import { DataTables } from '../constructs/data-tables.js';
import { FUNCTION_ACCESS } from '../stacks/function-access.js';
import { bareApp } from './support.js';

describe('the alerts table', () => {
  it('is declared with its key, the history, per-job and due indexes, point-in-time recovery and deletion protection', () => {
    const stack = new Stack(bareApp(), 'Tables');
    const tables = new DataTables(stack, 'Tables');
    const template = Template.fromStack(stack);
    const id = stack.getLogicalId(tables.tables.alerts.table.node.defaultChild as never);
    const resource = template.toJSON().Resources[id];
    expect(resource).toMatchObject({
      Type: 'AWS::DynamoDB::Table',
      DeletionPolicy: 'Retain',
      Properties: {
        KeySchema: [
          { AttributeName: 'pk', KeyType: 'HASH' },
          { AttributeName: 'sk', KeyType: 'RANGE' },
        ],
        BillingMode: 'PAY_PER_REQUEST',
        PointInTimeRecoverySpecification: { PointInTimeRecoveryEnabled: true },
        DeletionProtectionEnabled: true,
      },
    });
    const indexes = resource.Properties.GlobalSecondaryIndexes as {
      IndexName: string;
      KeySchema: { AttributeName: string }[];
      Projection: { ProjectionType: string };
    }[];
    expect(
      indexes.map((i) => [
        i.IndexName,
        i.KeySchema.map((k) => k.AttributeName).join('+'),
        i.Projection.ProjectionType,
      ]),
    ).toEqual([
      ['alertFeed', 'feed+order', 'ALL'],
      ['alertsByJob', 'jobId+order', 'ALL'],
      ['alertsDue', 'dueFeed+dueAt', 'KEYS_ONLY'],
    ]);
  });

  it('is used by every function that raises alarms (recording alerts), and swept by the monitors', () => {
    const users = (Object.keys(FUNCTIONS) as FunctionName[]).filter(
      (name) => FUNCTION_ACCESS[name].tables.alerts !== undefined,
    );
    expect(users.sort()).toEqual(['api', 'callback', 'dispatcher', 'monitors']);
    for (const name of users) {
      expect(FUNCTION_ACCESS[name].publishAlarms, `${name} publishes alarms`).toBe(true);
      expect(FUNCTION_ACCESS[name].tables.alerts).toEqual(
        expect.arrayContaining(['GetItem', 'PutItem', 'Query']),
      );
    }
    expect(FUNCTION_ACCESS.monitors.tables.alerts).toContain('BatchGetItem');
  });
});
