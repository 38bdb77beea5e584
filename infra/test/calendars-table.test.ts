import { FUNCTIONS, type FunctionName } from '@tickring/aws/topology';
import { Stack } from 'aws-cdk-lib';
import { Match, Template } from 'aws-cdk-lib/assertions';
import { describe, expect, it } from 'vitest';
import { DataTables } from '../constructs/data-tables.js';
import { FUNCTION_ACCESS } from '../stacks/function-access.js';
import { bareApp } from './support.js';

// The tables alone (no functions to bundle); the whole stack's grants are checked from FUNCTION_ACCESS,
// which the stack's roles and env vars are made of (tickring-stack.test.ts checks that for every table).
function tablesTemplate() {
  const stack = new Stack(bareApp(), 'Tables');
  const tables = new DataTables(stack, 'Tables');
  return { template: Template.fromStack(stack), stack, tables };
}

describe('the calendars table', () => {
  it('is declared with its key (one partition, by id), point-in-time recovery and deletion protection', () => {
    const { template, stack, tables } = tablesTemplate();
    const id = stack.getLogicalId(tables.tables.calendars.table.node.defaultChild as never);
    template.hasResource('AWS::DynamoDB::Table', {
      Properties: {
        KeySchema: [
          { AttributeName: 'pk', KeyType: 'HASH' },
          { AttributeName: 'sk', KeyType: 'RANGE' },
        ],
        AttributeDefinitions: Match.arrayEquals([
          { AttributeName: 'pk', AttributeType: 'S' },
          { AttributeName: 'sk', AttributeType: 'S' },
        ]),
        BillingMode: 'PAY_PER_REQUEST',
        PointInTimeRecoverySpecification: { PointInTimeRecoveryEnabled: true },
        DeletionProtectionEnabled: true,
        GlobalSecondaryIndexes: Match.absent(),
        TimeToLiveSpecification: Match.absent(),
      },
      DeletionPolicy: 'Retain',
    });
    expect(template.toJSON().Resources[id]).toBeDefined();
  });

  it('is written by the api alone, with what its store calls (no Scan, no UpdateItem), and read by the tick and the monitors', () => {
    const users = (Object.keys(FUNCTIONS) as FunctionName[]).filter(
      (name) => FUNCTION_ACCESS[name].tables.calendars !== undefined,
    );
    expect(users).toEqual(['scheduler-tick', 'api', 'monitors']);
    // The tick reads the calendars a due job follows, one item each; the monitors' dead-man sweep
    // the calendars of the jobs it accounts for.
    expect(FUNCTION_ACCESS['scheduler-tick'].tables.calendars).toEqual(['GetItem']);
    expect(FUNCTION_ACCESS.monitors.tables.calendars).toEqual(['GetItem']);
    expect([...(FUNCTION_ACCESS.api.tables.calendars ?? [])].sort()).toEqual([
      'DeleteItem',
      'GetItem',
      'PutItem',
      'Query',
    ]);
  });
});
