import { FUNCTIONS, type FunctionName } from '@tickring/aws/topology';
import { Stack } from 'aws-cdk-lib';
import { Match, Template } from 'aws-cdk-lib/assertions';
import { describe, expect, it } from 'vitest';
import { DataTables } from '../constructs/data-tables.js';
import { FUNCTION_ACCESS } from '../stacks/function-access.js';
import { bareApp } from './support.js';

function tablesTemplate() {
  const stack = new Stack(bareApp(), 'Tables');
  const tables = new DataTables(stack, 'Tables');
  return { template: Template.fromStack(stack), stack, tables };
}

describe('the backfills table', () => {
  it('is declared with its key (a job per partition, the active marks in one), point-in-time recovery and deletion protection', () => {
    const { template, stack, tables } = tablesTemplate();
    const id = stack.getLogicalId(tables.tables.backfills.table.node.defaultChild as never);
    expect(template.toJSON().Resources[id]).toMatchObject({
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
    template.hasResourceProperties('AWS::DynamoDB::Table', {
      KeySchema: [
        { AttributeName: 'pk', KeyType: 'HASH' },
        { AttributeName: 'sk', KeyType: 'RANGE' },
      ],
      GlobalSecondaryIndexes: Match.absent(),
    });
  });

  it('is used by the api (start, read, cancel) and the monitors (the sweep) alone, with what the store calls', () => {
    const users = (Object.keys(FUNCTIONS) as FunctionName[]).filter(
      (name) => FUNCTION_ACCESS[name].tables.backfills !== undefined,
    );
    expect(users.sort()).toEqual(['api', 'monitors']);
    expect([...(FUNCTION_ACCESS.api.tables.backfills ?? [])].sort()).toEqual([
      'DeleteItem',
      'GetItem',
      'PutItem',
      'Query',
    ]);
    expect([...(FUNCTION_ACCESS.monitors.tables.backfills ?? [])].sort()).toEqual([
      'BatchGetItem',
      'DeleteItem',
      'GetItem',
      'PutItem',
      'Query',
    ]);
  });
});
