import { type KeyDefinition, TABLE_LIST, type TableDefinition, type TableName } from '@tickring/aws/topology';
import { RemovalPolicy } from 'aws-cdk-lib';
import * as dynamodb from 'aws-cdk-lib/aws-dynamodb';
import { Construct } from 'constructs';
import type { NamedTable } from './service-function.js';

export interface DataTablesProps {
  /**
   * DynamoDB deletion protection: a delete of the table (by hand or by CloudFormation) fails.
   * Turn it off only for throw-away test stacks.
   * @default true
   */
  readonly deletionProtection?: boolean;
  /** What CloudFormation does with a table the stack no longer has. @default RemovalPolicy.RETAIN */
  readonly removalPolicy?: RemovalPolicy;
}

function attribute(key: KeyDefinition): dynamodb.Attribute {
  return {
    name: key.name,
    type: key.type === 'S' ? dynamodb.AttributeType.STRING : dynamodb.AttributeType.NUMBER,
  };
}

/**
 * tickring's DynamoDB tables, declared from `shared/schema/tables.ts`, the same definitions the local
 * stack creates its tables from: on-demand, point-in-time recovery, TTL where the definition names an
 * attribute, every GSI with its projection.
 */
export class DataTables extends Construct {
  readonly tables: Readonly<Record<TableName, NamedTable & { readonly table: dynamodb.Table }>>;

  constructor(scope: Construct, id: string, props: DataTablesProps = {}) {
    super(scope, id);
    const entries = TABLE_LIST.map(
      (definition) => [definition.logicalName, this.declare(definition, props)] as const,
    );
    this.tables = Object.fromEntries(entries) as DataTables['tables'];
  }

  get list(): ReadonlyArray<NamedTable & { readonly table: dynamodb.Table }> {
    return Object.values(this.tables);
  }

  private declare(definition: TableDefinition, props: DataTablesProps) {
    const table = new dynamodb.Table(this, definition.logicalName, {
      partitionKey: attribute(definition.partitionKey),
      sortKey: definition.sortKey ? attribute(definition.sortKey) : undefined,
      billingMode: dynamodb.BillingMode.PAY_PER_REQUEST,
      pointInTimeRecoverySpecification: { pointInTimeRecoveryEnabled: true },
      timeToLiveAttribute: definition.ttlAttribute,
      deletionProtection: props.deletionProtection ?? true,
      removalPolicy: props.removalPolicy ?? RemovalPolicy.RETAIN,
    });
    for (const index of definition.indexes) {
      table.addGlobalSecondaryIndex({
        indexName: index.indexName,
        partitionKey: attribute(index.partitionKey),
        sortKey: index.sortKey ? attribute(index.sortKey) : undefined,
        projectionType:
          index.projection === 'ALL' ? dynamodb.ProjectionType.ALL : dynamodb.ProjectionType.KEYS_ONLY,
      });
    }
    return { logicalName: definition.logicalName, table };
  }
}
