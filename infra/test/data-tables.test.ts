import { TABLE_LIST } from '@tickring/aws/topology';
import { RemovalPolicy, Stack } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { describe, expect, it } from 'vitest';
import { DataTables } from '../constructs/data-tables.js';
import { bareApp } from './support.js';

// The tables alone (no functions, so nothing to bundle): cheap enough to synthesize per case.
function tablesTemplate(props: ConstructorParameters<typeof DataTables>[2]) {
  const stack = new Stack(bareApp(), 'Tables');
  new DataTables(stack, 'Tables', props);
  return Template.fromStack(stack);
}

describe('DataTables', () => {
  it('turns deletion protection on and retains the tables by default', () => {
    const template = tablesTemplate({});
    template.resourceCountIs('AWS::DynamoDB::Table', TABLE_LIST.length);
    template.allResourcesProperties('AWS::DynamoDB::Table', { DeletionProtectionEnabled: true });
    template.allResources('AWS::DynamoDB::Table', {
      DeletionPolicy: 'Retain',
      UpdateReplacePolicy: 'Retain',
    });
  });

  it('turns deletion protection off with the prop, for throw-away test stacks', () => {
    const template = tablesTemplate({ deletionProtection: false, removalPolicy: RemovalPolicy.DESTROY });
    template.allResourcesProperties('AWS::DynamoDB::Table', { DeletionProtectionEnabled: false });
    template.allResources('AWS::DynamoDB::Table', { DeletionPolicy: 'Delete' });
  });

  it('gives the runs table one sparse KEYS_ONLY index, so putting or updating a run writes no index entry', () => {
    const tables = Object.values(tablesTemplate({}).findResources('AWS::DynamoDB::Table'));
    const runs = tables.find((t) =>
      (t.Properties.GlobalSecondaryIndexes ?? []).some(
        (i: { IndexName: string }) => i.IndexName === 'outcomePending',
      ),
    );
    expect(runs?.Properties.KeySchema).toEqual([
      { AttributeName: 'pk', KeyType: 'HASH' },
      { AttributeName: 'sk', KeyType: 'RANGE' },
    ]);
    const indexes = (runs?.Properties.GlobalSecondaryIndexes ?? []) as {
      IndexName: string;
      KeySchema: { AttributeName: string; KeyType: string }[];
      Projection: { ProjectionType: string };
    }[];
    const declared = indexes.map((i) => [
      i.IndexName,
      i.KeySchema.map((k) => k.AttributeName).join('+'),
      i.Projection.ProjectionType,
    ]);
    expect(declared).toEqual([['outcomePending', 'outcomeBucket+outcomeDueAt', 'KEYS_ONLY']]);
  });

  it('names its tables after the shared definitions', () => {
    const stack = new Stack(bareApp(), 'Tables');
    const tables = new DataTables(stack, 'Tables');
    expect(tables.list.map((t) => t.logicalName).sort()).toEqual(TABLE_LIST.map((t) => t.logicalName).sort());
  });
});
