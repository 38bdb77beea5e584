import { existsSync, readFileSync } from 'node:fs';
import * as path from 'node:path';
import { tableEnvName } from '@tickring/aws/clients';
import { METRICS_NAMESPACE } from '@tickring/aws/observability';
import {
  FUNCTIONS,
  type FunctionName,
  HTTP_ROUTES,
  QUEUE_LIST,
  TABLE_LIST,
  TABLES,
  type TableName,
} from '@tickring/aws/topology';
import { METRIC } from '@tickring/core/common';
import { ENV } from '@tickring/core/config';
import { CfnResource as CdkCfnResource, Stack } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { ACCESS_LOG_FIELDS } from '../constructs/http-api.js';
import { PROJECT_ROOT } from '../constructs/service-function.js';
import { METRIC_EMITTERS } from '../constructs/tickring-metrics.js';
import { FUNCTION_ACCESS, type SecretName } from '../stacks/function-access.js';
import type { TickringStack } from '../stacks/tickring-stack.js';
import {
  asArray,
  type CfnResource,
  type CfnTemplate,
  consoleDeploymentHandler,
  EVERY_OPTION,
  identityStatements,
  logicalId,
  ownedByRole,
  type PolicyStatement,
  references,
  testApp,
  testStack,
} from './support.js';

// Synthesis without bundling: the template is the same but for the assets' hashes, and the bundles
// themselves are built and run by bundle.int.test.ts (bundling here took 36 s of CPU
// for the file against 16 s without).
vi.setConfig({ testTimeout: 60_000, hookTimeout: 180_000 });

// One synthesized stack for the whole file.
let stack: TickringStack;
let template: Template;
let json: CfnTemplate;

beforeAll(() => {
  // With CDK's CloudFormation validation, as `cdk synth` runs it (the other infra files leave it off).
  stack = testStack(testApp({ bundle: false, validation: true }));
  template = Template.fromStack(stack);
  json = template.toJSON() as CfnTemplate;
}, 120_000);

const FUNCTION_NAMES = Object.keys(FUNCTIONS) as FunctionName[];
const ALL_METRIC_NAMES: string[] = Object.values(METRIC);

function resourcesOf(type: string): [string, CfnResource][] {
  return Object.entries(json.Resources).filter(([, r]) => r.Type === type);
}

// biome-ignore lint/suspicious/noExplicitAny: CloudFormation JSON, navigated freely by the assertions
type Json = any;

function props(resource: CfnResource): Record<string, Json> {
  return resource.Properties ?? {};
}

function fnId(name: FunctionName): string {
  return logicalId(stack, stack.functions[name].function);
}

function fnEnv(name: FunctionName): Record<string, unknown> {
  const resource = json.Resources[fnId(name)];
  return (props(resource!).Environment?.Variables ?? {}) as Record<string, unknown>;
}

function roleStatements(name: FunctionName): PolicyStatement[] {
  const roleId = logicalId(stack, stack.functions[name].role);
  return identityStatements(json)
    .filter(({ owner }) => {
      const resource = json.Resources[owner]!;
      return owner === roleId || references(props(resource).Roles, roleId);
    })
    .map(({ statement }) => statement);
}

function actionsOn(statements: PolicyStatement[], resourceId: string): string[] {
  return statements
    .filter(
      (s) => s.Effect === 'Allow' && asArray(s.Resource as unknown[]).some((r) => references(r, resourceId)),
    )
    .flatMap((s) => asArray(s.Action))
    .sort();
}

describe('functions', () => {
  it.each(FUNCTION_NAMES)(
    'deploys %s on nodejs22.x / arm64 as an ESM bundle with its timeout and memory',
    (name) => {
      const fn = props(json.Resources[fnId(name)]!);
      expect(fn.Runtime).toBe('nodejs22.x');
      expect(fn.Architectures).toEqual(['arm64']);
      expect(fn.Handler).toBe('index.handler');
      expect(fn.Timeout).toBe(FUNCTIONS[name].timeoutSeconds);
      expect(fn.MemorySize).toBe(FUNCTIONS[name].memoryMb);
      expect(fn.Environment.Variables).toMatchObject({
        NODE_OPTIONS: '--enable-source-maps',
        [ENV.serviceName]: name,
        POWERTOOLS_METRICS_NAMESPACE: METRICS_NAMESPACE,
      });
    },
  );

  it('gives every function a log group of its own, with a one-month retention by default', () => {
    const groups = FUNCTION_NAMES.map((name) => {
      const fn = props(json.Resources[fnId(name)]!);
      const ref = fn.LoggingConfig?.LogGroup?.Ref as string;
      expect(json.Resources[ref]?.Type).toBe('AWS::Logs::LogGroup');
      expect(props(json.Resources[ref]!).RetentionInDays).toBe(30);
      return ref;
    });
    expect(new Set(groups).size).toBe(FUNCTION_NAMES.length);
    // Beside them, only the web console's deployment handler (aws-s3-deployment's).
    const others = resourcesOf('AWS::Lambda::Function')
      .map(([id]) => id)
      .filter((id) => !FUNCTION_NAMES.some((name) => fnId(name) === id));
    expect(others).toEqual([consoleDeploymentHandler(json).functionId]);
  });

  it('gives every function a role of its own with no managed policies (no AWSLambdaBasicExecutionRole)', () => {
    const roles = FUNCTION_NAMES.map(
      (name) => props(json.Resources[fnId(name)]!).Role['Fn::GetAtt'][0] as string,
    );
    expect(new Set(roles).size).toBe(FUNCTION_NAMES.length);
    for (const role of roles) expect(props(json.Resources[role]!).ManagedPolicyArns).toBeUndefined();
  });

  it('sets the env var of every table, queue, topic and secret a function is granted, and the shard count', () => {
    for (const name of FUNCTION_NAMES) {
      const env = fnEnv(name);
      const access = FUNCTION_ACCESS[name];
      for (const table of TABLE_LIST) {
        const expected = access.tables[table.logicalName] !== undefined;
        expect(env[tableEnvName(table.logicalName)] !== undefined, `${name} ${table.logicalName}`).toBe(
          expected,
        );
      }
      expect(env[ENV.ringFastQueueUrl] !== undefined).toBe(access.sendToRing);
      expect(env[ENV.ringSlowQueueUrl] !== undefined).toBe(access.sendToRing);
      expect(env[ENV.alarmTopicArn] !== undefined).toBe(access.publishAlarms);
      expect(env[ENV.adminTokenSecretArn] !== undefined).toBe(access.secrets.includes('adminToken'));
      expect(env[ENV.accessTokenSecretArn] !== undefined).toBe(access.secrets.includes('accessToken'));
      expect(env[ENV.edgeSecretArn] !== undefined).toBe(access.secrets.includes('edgeSecret'));
      if (name !== 'executor-runner') expect(env[ENV.shardCount]).toBe('4');
    }
  });

  it("points the executor-runner's admin addresses at the HTTP API", () => {
    const stageId = logicalId(stack, stack.httpApi.stage);
    const apiId = logicalId(stack, stack.httpApi.api);
    const value = fnEnv('executor-runner')[ENV.adminAddresses];
    expect(references(value, apiId)).toBe(true);
    expect(JSON.stringify(value)).toContain('https://');
    expect(stageId).toBeTruthy();
  });

  it.each(FUNCTION_NAMES)('gives %s every variable its loadConfig requires', async (name) => {
    const { loadConfig } = (await import(path.join(PROJECT_ROOT, 'functions', name, 'config.ts'))) as {
      loadConfig: (env: Record<string, string>) => unknown;
    };
    // CloudFormation values become plausible strings; the admin address must parse as a URL.
    const env = Object.fromEntries(
      Object.entries(fnEnv(name)).map(([key, value]) => [
        key,
        typeof value === 'string'
          ? value
          : key === ENV.adminAddresses
            ? 'https://abc.execute-api.local/'
            : `cfn:${key}`,
      ]),
    );
    expect(() => loadConfig(env)).not.toThrow();
  });
});

describe('tables', () => {
  it('declares every table of the shared definitions, on demand, with point-in-time recovery', () => {
    expect(resourcesOf('AWS::DynamoDB::Table')).toHaveLength(TABLE_LIST.length);
    for (const { logicalName } of TABLE_LIST) {
      const table = json.Resources[logicalId(stack, stack.tables.tables[logicalName].table)]!;
      expect(props(table).BillingMode).toBe('PAY_PER_REQUEST');
      expect(props(table).PointInTimeRecoverySpecification).toEqual({ PointInTimeRecoveryEnabled: true });
    }
  });

  it('enables TTL exactly on the tables whose definition names a TTL attribute', () => {
    for (const def of TABLE_LIST) {
      const table = props(json.Resources[logicalId(stack, stack.tables.tables[def.logicalName].table)]!);
      if (def.ttlAttribute)
        expect(table.TimeToLiveSpecification).toEqual({ AttributeName: def.ttlAttribute, Enabled: true });
      else expect(table.TimeToLiveSpecification).toBeUndefined();
    }
    expect(TABLE_LIST.some((t) => t.ttlAttribute)).toBe(true);
  });

  it('declares each table with the keys, indexes and projections of its definition', () => {
    for (const def of TABLE_LIST) {
      const table = props(json.Resources[logicalId(stack, stack.tables.tables[def.logicalName].table)]!);
      expect(table.KeySchema).toEqual([
        { AttributeName: def.partitionKey.name, KeyType: 'HASH' },
        ...(def.sortKey ? [{ AttributeName: def.sortKey.name, KeyType: 'RANGE' }] : []),
      ]);
      const indexes = (table.GlobalSecondaryIndexes ?? []) as Record<string, Json>[];
      expect(indexes.map((i) => i.IndexName).sort()).toEqual(def.indexes.map((i) => i.indexName).sort());
      for (const index of def.indexes) {
        const declared = indexes.find((i) => i.IndexName === index.indexName)!;
        expect(declared.Projection).toEqual({ ProjectionType: index.projection });
        expect(declared.KeySchema[0]).toEqual({ AttributeName: index.partitionKey.name, KeyType: 'HASH' });
      }
    }
  });

  it('declares the workflows table like its siblings: pk/sk, five KEYS_ONLY indexes, TTL, PITR, retained', () => {
    const id = logicalId(stack, stack.tables.tables.workflows.table);
    const table = json.Resources[id]!;
    expect(table.DeletionPolicy).toBe('Retain');
    const p = props(table);
    expect(p).toMatchObject({
      BillingMode: 'PAY_PER_REQUEST',
      PointInTimeRecoverySpecification: { PointInTimeRecoveryEnabled: true },
      TimeToLiveSpecification: { AttributeName: 'expiresAt', Enabled: true },
      DeletionProtectionEnabled: true,
    });
    expect(p.KeySchema).toEqual([
      { AttributeName: 'pk', KeyType: 'HASH' },
      { AttributeName: 'sk', KeyType: 'RANGE' },
    ]);
    const declared = (p.GlobalSecondaryIndexes as Record<string, Json>[]).map((i) => [
      i.IndexName,
      (i.KeySchema as { AttributeName: string }[]).map((k) => k.AttributeName).join('+'),
      i.Projection.ProjectionType,
    ]);
    expect(declared.sort()).toEqual(
      [
        ['workflowList', 'listPk+wfId', 'KEYS_ONLY'],
        ['runsByWorkflow', 'runWorkflowId+createdAt', 'KEYS_ONLY'],
        ['runsAll', 'runList+createdAt', 'KEYS_ONLY'],
        ['activeByWorkflow', 'activeWorkflowId+createdAt', 'KEYS_ONLY'],
        ['stalledRuns', 'activeList+stalledSince', 'KEYS_ONLY'],
      ].sort(),
    );
    expect(declared).toHaveLength(TABLES.workflows.indexes.length);
  });

  it('protects every table from deletion and retains it by default', () => {
    for (const [, table] of resourcesOf('AWS::DynamoDB::Table')) {
      expect(props(table).DeletionProtectionEnabled).toBe(true);
      expect(table.DeletionPolicy).toBe('Retain');
      expect(table.UpdateReplacePolicy).toBe('Retain');
    }
  });
});

describe('ring queues', () => {
  it('gives every ring queue a DLQ with the maxReceiveCount of its definition', () => {
    expect(resourcesOf('AWS::SQS::Queue')).toHaveLength(QUEUE_LIST.length * 2);
    for (const def of QUEUE_LIST) {
      const ring = stack.queues.queues[def.logicalName];
      const queue = props(json.Resources[logicalId(stack, ring.queue)]!);
      expect(queue.RedrivePolicy).toEqual({
        deadLetterTargetArn: { 'Fn::GetAtt': [logicalId(stack, ring.deadLetterQueue), 'Arn'] },
        maxReceiveCount: def.deadLetter.maxReceiveCount,
      });
      expect(queue.VisibilityTimeout).toBe(def.visibilityTimeoutSeconds);
      expect(queue.MessageRetentionPeriod).toBe(def.retentionSeconds);
      const dlq = props(json.Resources[logicalId(stack, ring.deadLetterQueue)]!);
      expect(dlq.MessageRetentionPeriod).toBe(def.deadLetter.retentionSeconds);
    }
  });

  it('encrypts every queue with SQS-managed keys and refuses requests without TLS', () => {
    for (const [id, queue] of resourcesOf('AWS::SQS::Queue')) {
      expect(props(queue).SqsManagedSseEnabled).toBe(true);
      const policy = resourcesOf('AWS::SQS::QueuePolicy').find(([, p]) => references(props(p).Queues, id));
      expect(policy, id).toBeDefined();
      expect(JSON.stringify(props(policy![1]).PolicyDocument)).toContain('"aws:SecureTransport":"false"');
    }
  });

  it('feeds the dispatcher from both ring queues, batch 10, partial batch failures, max concurrency 50', () => {
    const mappings = resourcesOf('AWS::Lambda::EventSourceMapping').map(([, m]) => props(m));
    expect(mappings).toHaveLength(QUEUE_LIST.length);
    for (const def of QUEUE_LIST) {
      const queueId = logicalId(stack, stack.queues.queues[def.logicalName].queue);
      const mapping = mappings.find((m) => references(m.EventSourceArn, queueId));
      expect(mapping, def.logicalName).toMatchObject({
        FunctionName: { Ref: fnId('dispatcher') },
        BatchSize: 10,
        FunctionResponseTypes: ['ReportBatchItemFailures'],
        ScalingConfig: { MaximumConcurrency: 50 },
      });
    }
  });
});

describe('schedules', () => {
  function rulesTargeting(name: FunctionName) {
    return resourcesOf('AWS::Events::Rule')
      .map(([, r]) => props(r))
      .filter((r) => (r.Targets as { Arn: unknown }[]).some((t) => references(t.Arn, fnId(name))));
  }

  it('invokes scheduler-tick twice a minute from one rate(1 minute) rule (active + standby)', () => {
    const rules = rulesTargeting('scheduler-tick');
    expect(rules).toHaveLength(1);
    const rule = rules[0]!;
    expect(rule.ScheduleExpression).toBe('rate(1 minute)');
    expect(rule.State).toBe('ENABLED');
    const targets = rule.Targets as { Id: string; Arn: unknown; Input?: unknown }[];
    expect(targets).toHaveLength(2);
    expect(new Set(targets.map((t) => t.Id)).size).toBe(2);
    for (const target of targets) {
      expect(target.Arn).toEqual({ 'Fn::GetAtt': [fnId('scheduler-tick'), 'Arn'] });
      expect(target.Input).toBeUndefined(); // the plain Scheduled Event
    }
  });

  it('invokes monitors once a minute', () => {
    const rules = rulesTargeting('monitors');
    expect(rules).toHaveLength(1);
    expect(rules[0]!.ScheduleExpression).toBe('rate(1 minute)');
    expect(rules[0]!.Targets).toHaveLength(1);
  });

  it('turns off Lambda async retries for the tick, the monitors and the runner (a retry would re-run a job)', () => {
    for (const name of ['scheduler-tick', 'monitors', 'executor-runner'] as const) {
      template.hasResourceProperties('AWS::Lambda::EventInvokeConfig', {
        FunctionName: { Ref: fnId(name) },
        MaximumRetryAttempts: 0,
      });
    }
  });
});

describe('HTTP API', () => {
  it('has exactly the routes of HTTP_ROUTES, each a payload 2.0 Lambda proxy to its function', () => {
    const routes = resourcesOf('AWS::ApiGatewayV2::Route').map(([, r]) => props(r));
    expect(routes.map((r) => r.RouteKey).sort()).toEqual(HTTP_ROUTES.map((r) => r.routeKey).sort());
    for (const route of HTTP_ROUTES) {
      const declared = routes.find((r) => r.RouteKey === route.routeKey)!;
      const integrationId = (declared.Target['Fn::Join'][1] as unknown[])
        .map((p) => (p as { Ref?: string }).Ref)
        .find(Boolean)!;
      const integration = props(json.Resources[integrationId]!);
      expect(integration.IntegrationType).toBe('AWS_PROXY');
      expect(integration.PayloadFormatVersion).toBe('2.0');
      expect(references(integration.IntegrationUri, fnId(route.target))).toBe(true);
    }
  });

  it('has one auto-deployed $default stage with default throttling', () => {
    template.resourceCountIs('AWS::ApiGatewayV2::Stage', 1);
    template.hasResourceProperties('AWS::ApiGatewayV2::Stage', {
      StageName: '$default',
      AutoDeploy: true,
      DefaultRouteSettings: { ThrottlingRateLimit: 200, ThrottlingBurstLimit: 400 },
    });
  });

  it('writes a JSON access log line per request to a log group of its own, kept a month, with no header', () => {
    const [[, stage] = []] = resourcesOf('AWS::ApiGatewayV2::Stage');
    const settings = props(stage as CfnResource).AccessLogSettings;
    const logGroupId = logicalId(stack, stack.httpApi.accessLogs);
    expect(settings.DestinationArn).toEqual({ 'Fn::GetAtt': [logGroupId, 'Arn'] });
    expect(props(json.Resources[logGroupId]!).RetentionInDays).toBe(30);
    const format = JSON.parse(settings.Format as string) as Record<string, string>;
    expect(format).toEqual(ACCESS_LOG_FIELDS);
    expect(format).toMatchObject({
      requestId: '$context.requestId',
      sourceIp: '$context.identity.sourceIp',
      routeKey: '$context.routeKey',
      status: '$context.status',
    });
    // Nothing that could carry a credential: no request header, no authorizer context.
    for (const value of Object.values(format)) expect(value).not.toMatch(/header|authorizer/i);
  });
});

describe('IAM', () => {
  // Actions AWS grants on `*` only (no resource-level permissions); only these may have Resource "*".
  const STAR_RESOURCE_ALLOWED = new Set(['xray:PutTraceSegments', 'xray:PutTelemetryRecords']);

  /**
   * The identity statements of tickring's own roles. The web console's deployment handler is
   * aws-s3-deployment's, with CDK's grants (s3:GetObject*, cloudfront:CreateInvalidation on "*"): it is
   * bounded by the test of its own below instead.
   */
  const ownStatements = () => {
    const { roleId } = consoleDeploymentHandler(json);
    return identityStatements(json).filter(({ owner }) => !ownedByRole(json, owner, roleId));
  };

  it('has no statement with a wildcard action in any identity policy', () => {
    const statements = ownStatements();
    expect(statements.length).toBeGreaterThan(0);
    for (const { owner, statement } of statements) {
      for (const action of asArray(statement.Action)) {
        expect(action, owner).not.toBe('*');
        expect(action, owner).not.toMatch(/\*/);
      }
    }
  });

  it('uses Resource "*" only for actions without resource-level permissions', () => {
    for (const { owner, statement } of ownStatements()) {
      if (!asArray(statement.Resource as unknown[]).includes('*')) continue;
      for (const action of asArray(statement.Action))
        expect(STAR_RESOURCE_ALLOWED.has(action), `${owner}: ${action}`).toBe(true);
    }
  });

  it("bounds the console's deployment handler: it reads the asset bucket, writes only the console bucket and its log group, invalidates only", () => {
    const { roleId } = consoleDeploymentHandler(json);
    const statements = identityStatements(json)
      .filter(({ owner }) => ownedByRole(json, owner, roleId))
      .map(({ statement }) => statement);
    expect(statements.length).toBeGreaterThan(0);
    const consoleBucket = logicalId(stack, stack.webConsole.bucket);
    const deploymentLogs = logicalId(stack, stack.webConsole.deploymentLogs);
    const readOnly = new Set(['s3:GetBucket*', 's3:GetObject*', 's3:List*']);
    for (const statement of statements) {
      expect(statement.Effect).toBe('Allow');
      const actions = asArray(statement.Action);
      const service = new Set(actions.map((a) => a.split(':')[0]));
      expect(
        [...service].every((s) => s === 's3' || s === 'cloudfront' || s === 'logs'),
        actions.join(),
      ).toBe(true);
      if (service.has('cloudfront')) {
        expect(actions.sort()).toEqual(['cloudfront:CreateInvalidation', 'cloudfront:GetInvalidation']);
        continue;
      }
      // Its own log group, written only (no AWSLambdaBasicExecutionRole with logs:* on "*").
      if (service.has('logs')) {
        expect(actions.sort()).toEqual(['logs:CreateLogStream', 'logs:PutLogEvents']);
        expect(references(statement.Resource, deploymentLogs)).toBe(true);
        expect(asArray(statement.Resource as unknown[])).toHaveLength(1);
        continue;
      }
      // Anything beyond reading is on the console bucket (and its objects) alone.
      if (actions.every((a) => readOnly.has(a))) continue;
      const resources = asArray(statement.Resource as unknown[]);
      expect(resources.length).toBeGreaterThan(0);
      for (const resource of resources) expect(references(resource, consoleBucket)).toBe(true);
    }
    // And none of the scheduler's data: no table, queue, topic or secret.
    const text = JSON.stringify(statements);
    for (const { table } of stack.tables.list) expect(text).not.toContain(logicalId(stack, table));
    for (const ring of stack.queues.list) expect(text).not.toContain(logicalId(stack, ring.queue));
    expect(text).not.toContain(logicalId(stack, stack.alarmTopic.topic));
    for (const s of ['adminToken', 'accessToken', 'tokenKey', 'edgeSecret'] as const)
      expect(text).not.toContain(logicalId(stack, stack.secrets[s]));
  });

  it.each(FUNCTION_NAMES)('grants %s exactly its DynamoDB actions per table', (name) => {
    const statements = roleStatements(name);
    for (const table of TABLE_LIST) {
      const id = logicalId(stack, stack.tables.tables[table.logicalName as TableName].table);
      const access = FUNCTION_ACCESS[name].tables[table.logicalName];
      const expected = Array.isArray(access) ? access.map((a) => `dynamodb:${a}`).sort() : [];
      expect(actionsOn(statements, id), `${name} on ${table.logicalName}`).toEqual(expected);
    }
  });

  describe('the workflows table', () => {
    const USERS: FunctionName[] = ['api', 'dispatcher', 'callback', 'monitors'];
    const tableId = () => logicalId(stack, stack.tables.tables.workflows.table);
    /** The statements of the function's role that name the workflows table. */
    const onWorkflows = (name: FunctionName) =>
      roleStatements(name).filter((s) =>
        asArray(s.Resource as unknown[]).some((r) => references(r, tableId())),
      );

    it('is used by exactly the api, the dispatcher, the callback and the monitors', () => {
      const users = FUNCTION_NAMES.filter((name) => FUNCTION_ACCESS[name].tables.workflows !== undefined);
      expect(users.sort()).toEqual([...USERS].sort());
    });

    it.each(USERS)('gives %s its name and read/write actions on the table and its indexes', (name) => {
      expect(fnEnv(name)[tableEnvName('workflows')]).toEqual({ Ref: tableId() });
      const statements = onWorkflows(name);
      expect(statements.length).toBeGreaterThan(0);
      const actions = statements.flatMap((s) => asArray(s.Action));
      // Reads, and writes; every engine of a run also queries (a run's partition, the indexes).
      for (const action of ['GetItem', 'Query', 'PutItem', 'UpdateItem'])
        expect(actions, name).toContain(`dynamodb:${action}`);
      // Nothing beyond what the store calls: no Scan, no batch writes, no table management.
      for (const action of actions)
        expect(
          ['GetItem', 'BatchGetItem', 'Query', 'PutItem', 'UpdateItem', 'DeleteItem'].map(
            (a) => `dynamodb:${a}`,
          ),
          `${name}: ${action}`,
        ).toContain(action);
      for (const statement of statements) {
        const resources = asArray(statement.Resource as unknown[]);
        expect(resources).toContainEqual({ 'Fn::GetAtt': [tableId(), 'Arn'] });
        // The GSIs (Query on workflowList, runsByWorkflow, runsAll, activeByWorkflow, stalledRuns).
        expect(resources).toContainEqual({
          'Fn::Join': ['', [{ 'Fn::GetAtt': [tableId(), 'Arn'] }, '/index/*']],
        });
      }
    });

    it('lets only the api delete from it (a workflow)', () => {
      for (const name of USERS) {
        const actions = onWorkflows(name).flatMap((s) => asArray(s.Action));
        expect(actions.includes('dynamodb:DeleteItem'), name).toBe(name === 'api');
      }
    });

    it.each(['scheduler-tick', 'executor-runner'] as const)(
      'gives %s neither its name nor any action on it',
      (name) => {
        expect(fnEnv(name)[tableEnvName('workflows')]).toBeUndefined();
        expect(onWorkflows(name)).toEqual([]);
      },
    );
  });

  it.each(FUNCTION_NAMES)('grants %s the queues, topic and secrets it uses, and nothing else', (name) => {
    const statements = roleStatements(name);
    const access = FUNCTION_ACCESS[name];
    for (const ring of stack.queues.list) {
      const actions = actionsOn(statements, logicalId(stack, ring.queue));
      expect(actions.includes('sqs:SendMessage')).toBe(access.sendToRing);
      // The send grant reads the attributes too: the tick gauges the fast queue's backlog with it.
      expect(actions.includes('sqs:GetQueueAttributes')).toBe(access.sendToRing || name === 'dispatcher');
      expect(actions.includes('sqs:ReceiveMessage')).toBe(name === 'dispatcher');
      expect(actionsOn(statements, logicalId(stack, ring.deadLetterQueue))).toEqual([]);
    }
    expect(actionsOn(statements, logicalId(stack, stack.alarmTopic.topic))).toEqual(
      access.publishAlarms ? ['sns:Publish'] : [],
    );
    const secret = (s: SecretName) => actionsOn(statements, logicalId(stack, stack.secrets[s]));
    for (const s of ['adminToken', 'accessToken', 'tokenKey', 'edgeSecret'] as const) {
      expect(secret(s)).toEqual(
        access.secrets.includes(s) ? ['secretsmanager:DescribeSecret', 'secretsmanager:GetSecretValue'] : [],
      );
    }
  });

  it('lets only the dispatcher invoke the executor-runner, and opens it to no other principal', () => {
    const runnerId = fnId('executor-runner');
    for (const name of FUNCTION_NAMES) {
      const invokes = actionsOn(roleStatements(name), runnerId).filter((a) => a.startsWith('lambda:'));
      expect(invokes, name).toEqual(name === 'dispatcher' ? ['lambda:InvokeFunction'] : []);
    }
    const permissions = resourcesOf('AWS::Lambda::Permission').filter(([, p]) =>
      references(props(p).FunctionName, runnerId),
    );
    expect(permissions).toEqual([]);
  });

  it('lets the functions that run the workflow engine invoke the dispatcher, and tells them its name', () => {
    const dispatcherId = fnId('dispatcher');
    const engines = ['api', 'callback', 'dispatcher', 'monitors'];
    for (const name of FUNCTION_NAMES) {
      const invokes = actionsOn(roleStatements(name), dispatcherId).filter((a) => a.startsWith('lambda:'));
      expect(invokes, name).toEqual(engines.includes(name) ? ['lambda:InvokeFunction'] : []);
      // The dispatcher hands to itself by the name Lambda gives it (its own env cannot name it).
      const named = name !== 'dispatcher' && engines.includes(name);
      expect(fnEnv(name)[ENV.dispatcherFunction], name).toEqual(named ? { Ref: dispatcherId } : undefined);
    }
  });

  it('retries a handed-off event to the dispatcher twice, and drops it once it is 5 minutes old', () => {
    template.hasResourceProperties('AWS::Lambda::EventInvokeConfig', {
      FunctionName: { Ref: fnId('dispatcher') },
      MaximumRetryAttempts: 2,
      MaximumEventAgeInSeconds: 300,
    });
  });

  it('opens api and callback to API Gateway and tick and monitors to EventBridge only', () => {
    const permissions = resourcesOf('AWS::Lambda::Permission').map(([, p]) => props(p));
    const principals = (name: FunctionName) =>
      [
        ...new Set(permissions.filter((p) => references(p.FunctionName, fnId(name))).map((p) => p.Principal)),
      ].sort();
    expect(principals('api')).toEqual(['apigateway.amazonaws.com']);
    expect(principals('callback')).toEqual(['apigateway.amazonaws.com']);
    expect(principals('scheduler-tick')).toEqual(['events.amazonaws.com']);
    expect(principals('monitors')).toEqual(['events.amazonaws.com']);
    expect(principals('dispatcher')).toEqual([]);
  });
});

describe('secrets', () => {
  it('generates both tokens (40 letters and digits), the token key and the edge secret (64) in Secrets Manager at deploy time, no value in the template', () => {
    const secrets = resourcesOf('AWS::SecretsManager::Secret').map(([, s]) => props(s));
    expect(secrets).toHaveLength(4);
    expect(
      secrets.map((s) => (s.GenerateSecretString as { PasswordLength: number }).PasswordLength).sort(),
    ).toEqual([40, 40, 64, 64]);
    for (const secret of secrets) {
      expect(secret.GenerateSecretString).toMatchObject({ ExcludePunctuation: true });
      expect(secret.SecretString).toBeUndefined();
    }
  });

  it('passes the tokens to functions as secret ARNs only, never as values', () => {
    for (const name of FUNCTION_NAMES) {
      const env = fnEnv(name);
      expect(env[ENV.adminToken]).toBeUndefined();
      expect(env[ENV.accessToken]).toBeUndefined();
      expect(env[ENV.tokenKey]).toBeUndefined();
      for (const [key, s] of [
        [ENV.adminTokenSecretArn, stack.secrets.adminToken],
        [ENV.accessTokenSecretArn, stack.secrets.accessToken],
        [ENV.tokenKeySecretArn, stack.secrets.tokenKey],
        [ENV.edgeSecretArn, stack.secrets.edgeSecret],
      ] as const) {
        if (env[key] !== undefined) expect(env[key]).toEqual({ Ref: logicalId(stack, s) });
      }
    }
  });

  it('lets the api alone read the edge secret (CloudFront gets it from CloudFormation, not from IAM)', () => {
    expect(FUNCTION_ACCESS.api.secrets).toContain('edgeSecret');
    const edgeId = logicalId(stack, stack.secrets.edgeSecret);
    const apiRole = logicalId(stack, stack.functions.api.role);
    const readers = identityStatements(json)
      .filter(({ statement }) => statement.Effect === 'Allow' && references(statement.Resource, edgeId))
      .map(({ owner, statement }) => ({
        api: ownedByRole(json, owner, apiRole),
        actions: asArray(statement.Action).sort(),
      }));
    expect(readers).toEqual([
      { api: true, actions: ['secretsmanager:DescribeSecret', 'secretsmanager:GetSecretValue'] },
    ]);
    // No resource policy opens it to anyone else either.
    expect(
      resourcesOf('AWS::SecretsManager::ResourcePolicy').filter(([, p]) =>
        references(props(p).SecretId, edgeId),
      ),
    ).toEqual([]);
    expect(fnEnv('api')[ENV.edgeSecretArn]).toEqual({ Ref: edgeId });
    // Nothing outside the stack holds it: it goes with the stack, and is no output.
    expect(json.Resources[edgeId]?.DeletionPolicy).toBe('Delete');
    expect(JSON.stringify(json.Outputs ?? {})).not.toContain(edgeId);
  });

  it('holds none of the local tokens anywhere in the template', () => {
    const text = JSON.stringify(json);
    expect(text).not.toContain(`"${ENV.adminToken}"`);
    expect(text).not.toContain(`"${ENV.accessToken}"`);
    const values = [process.env[ENV.adminToken], process.env[ENV.accessToken]];
    const tokensFile = path.join(PROJECT_ROOT, '.tickring', 'tokens.json');
    if (existsSync(tokensFile))
      values.push(...Object.values(JSON.parse(readFileSync(tokensFile, 'utf8')) as string[]));
    for (const value of values)
      if (typeof value === 'string' && value.length >= 8) expect(text).not.toContain(value);
  });
});

describe('alarms and dashboard', () => {
  type AlarmProps = Record<string, Json>;
  const alarms = () => resourcesOf('AWS::CloudWatch::Alarm').map(([, a]) => props(a) as AlarmProps);
  const metricsOf = (
    alarm: AlarmProps,
  ): { Namespace: string; MetricName: string; Dimensions?: { Name: string; Value: unknown }[] }[] =>
    alarm.MetricName
      ? [{ Namespace: alarm.Namespace, MetricName: alarm.MetricName, Dimensions: alarm.Dimensions }]
      : (alarm.Metrics as { MetricStat?: { Metric: Json } }[]).flatMap((m) =>
          m.MetricStat ? [m.MetricStat.Metric] : [],
        );

  it('sends every alarm (and its recovery) to the alarm topic', () => {
    const topicId = logicalId(stack, stack.alarmTopic.topic);
    expect(alarms().length).toBeGreaterThan(0);
    for (const alarm of alarms()) {
      expect(alarm.AlarmActions).toEqual([{ Ref: topicId }]);
      expect(alarm.OKActions).toEqual([{ Ref: topicId }]);
    }
  });

  it('points every alarm on a Tickring metric at a metric name and service the code emits', () => {
    let business = 0;
    for (const alarm of alarms()) {
      for (const metric of metricsOf(alarm)) {
        if (metric.Namespace !== METRICS_NAMESPACE) {
          expect(['AWS/Lambda', 'AWS/SQS']).toContain(metric.Namespace);
          continue;
        }
        business++;
        expect(ALL_METRIC_NAMES).toContain(metric.MetricName);
        const key = (Object.keys(METRIC) as (keyof typeof METRIC)[]).find(
          (k) => METRIC[k] === metric.MetricName,
        )!;
        expect(metric.Dimensions).toEqual([{ Name: 'service', Value: expect.any(String) }]);
        expect(METRIC_EMITTERS[key]).toContain(metric.Dimensions?.[0]?.Value);
      }
    }
    expect(business).toBeGreaterThanOrEqual(3);
  });

  it('alarms when the tick has not run for 3 minutes, missing data breaching', () => {
    template.hasResourceProperties('AWS::CloudWatch::Alarm', {
      Namespace: 'AWS/Lambda',
      MetricName: 'Invocations',
      Dimensions: [{ Name: 'FunctionName', Value: { Ref: fnId('scheduler-tick') } }],
      ComparisonOperator: 'LessThanThreshold',
      Threshold: 1,
      EvaluationPeriods: 3,
      Period: 60,
      TreatMissingData: 'breaching',
    });
  });

  it('alarms when any dead-letter queue is not empty', () => {
    for (const ring of stack.queues.list) {
      template.hasResourceProperties('AWS::CloudWatch::Alarm', {
        Namespace: 'AWS/SQS',
        MetricName: 'ApproximateNumberOfMessagesVisible',
        Dimensions: [
          {
            Name: 'QueueName',
            Value: { 'Fn::GetAtt': [logicalId(stack, ring.deadLetterQueue), 'QueueName'] },
          },
        ],
        ComparisonOperator: 'GreaterThanThreshold',
        Threshold: 0,
      });
    }
  });

  it('alarms when the p99 of lateness exceeds 1 s', () => {
    template.hasResourceProperties('AWS::CloudWatch::Alarm', {
      Namespace: METRICS_NAMESPACE,
      MetricName: METRIC.lateness,
      ExtendedStatistic: 'p99',
      Threshold: 1000,
      ComparisonOperator: 'GreaterThanThreshold',
    });
  });

  it('alarms when more than 10% of triggers fail over 5 minutes (metric math)', () => {
    const alarm = alarms().find(
      (a) => Array.isArray(a.Metrics) && metricsOf(a).some((m) => m.MetricName === METRIC.dispatchFailures),
    )!;
    expect(alarm).toBeDefined();
    expect(alarm.Threshold).toBe(10);
    const names = metricsOf(alarm)
      .map((m) => m.MetricName)
      .sort();
    expect(names).toEqual([METRIC.dispatchFailures, METRIC.runsDispatched].sort());
    const expression = (alarm.Metrics as { Expression?: string }[]).find((m) => m.Expression)!;
    expect(expression.Expression).toContain('failed');
    expect(
      (alarm.Metrics as { MetricStat?: { Period: number } }[])
        .filter((m) => m.MetricStat)
        .every((m) => m.MetricStat!.Period === 300),
    ).toBe(true);
  });

  it('alarms when a monitor sweep failed in two 5-minute periods in a row, missing data not breaching', () => {
    template.hasResourceProperties('AWS::CloudWatch::Alarm', {
      Namespace: METRICS_NAMESPACE,
      MetricName: METRIC.sweepFailures,
      Dimensions: [{ Name: 'service', Value: 'monitors' }],
      Statistic: 'Sum',
      Period: 300,
      Threshold: 1,
      ComparisonOperator: 'GreaterThanOrEqualToThreshold',
      EvaluationPeriods: 2,
      DatapointsToAlarm: 2,
      TreatMissingData: 'notBreaching',
    });
  });

  it('alarms "scheduler overloaded" when late fires were skipped (dispatcher or tick) in 3 of 5 minutes, missing data not breaching', () => {
    const overloaded = alarms().filter(
      (a) =>
        Array.isArray(a.Metrics) && metricsOf(a).some((m) => m.MetricName === METRIC.firesSkippedOverload),
    );
    expect(overloaded).toHaveLength(1);
    const alarm = overloaded[0]!;
    expect(alarm).toMatchObject({
      Threshold: 1,
      ComparisonOperator: 'GreaterThanOrEqualToThreshold',
      EvaluationPeriods: 5,
      DatapointsToAlarm: 3,
      TreatMissingData: 'notBreaching',
      AlarmActions: [{ Ref: logicalId(stack, stack.alarmTopic.topic) }],
    });
    expect(alarm.AlarmDescription).toMatch(/^scheduler overloaded: /);
    // Counted where they are skipped: the dispatcher (late on arrival) and the tick (left due).
    expect(
      metricsOf(alarm)
        .map((m) => m.Dimensions?.[0]?.Value)
        .sort(),
    ).toEqual(['dispatcher', 'scheduler-tick']);
    const stats = (alarm.Metrics as { MetricStat?: { Period: number; Stat: string } }[]).flatMap((m) =>
      m.MetricStat ? [m.MetricStat] : [],
    );
    expect(stats.every((m) => m.Period === 60 && m.Stat === 'Sum')).toBe(true);
  });

  it('alarms when a schedule owed fires nothing explains (FiresUnexplained, monitors) in 5 minutes, missing data not breaching', () => {
    const unexplained = alarms().filter((a) => a.MetricName === METRIC.firesUnexplained);
    expect(unexplained).toHaveLength(1);
    expect(unexplained[0]).toMatchObject({
      Namespace: METRICS_NAMESPACE,
      Dimensions: [{ Name: 'service', Value: 'monitors' }],
      Statistic: 'Sum',
      Period: 300,
      Threshold: 1,
      ComparisonOperator: 'GreaterThanOrEqualToThreshold',
      TreatMissingData: 'notBreaching',
      AlarmActions: [{ Ref: logicalId(stack, stack.alarmTopic.topic) }],
    });
  });

  it('alarms when a job missed its deadline (DeadlinesMissed, monitors) in 5 minutes, missing data not breaching', () => {
    const missed = alarms().filter((a) => a.MetricName === METRIC.deadlinesMissed);
    expect(missed).toHaveLength(1);
    expect(missed[0]).toMatchObject({
      Namespace: METRICS_NAMESPACE,
      Dimensions: [{ Name: 'service', Value: 'monitors' }],
      Statistic: 'Sum',
      Period: 300,
      Threshold: 1,
      ComparisonOperator: 'GreaterThanOrEqualToThreshold',
      TreatMissingData: 'notBreaching',
      AlarmActions: [{ Ref: logicalId(stack, stack.alarmTopic.topic) }],
    });
  });

  it('graphs FiresSkippedOverload in the widget of MisfiresSkipped', () => {
    const [, dashboard] = resourcesOf('AWS::CloudWatch::Dashboard')[0]!;
    const raw = props(dashboard).DashboardBody as { 'Fn::Join': [string, unknown[]] } | string;
    const text =
      typeof raw === 'string'
        ? raw
        : raw['Fn::Join'][1].map((part) => (typeof part === 'string' ? part : 'TOKEN')).join('');
    const body = JSON.parse(text) as { widgets: { properties: { title?: string; metrics?: unknown[][] } }[] };
    const lines = (name: string) =>
      body.widgets.filter((w) =>
        (w.properties.metrics ?? []).some((m) => m[0] === METRICS_NAMESPACE && m[1] === name),
      );
    const overload = lines(METRIC.firesSkippedOverload);
    expect(overload).toHaveLength(1);
    expect(lines(METRIC.misfiresSkipped)).toEqual(overload);
    expect(overload[0]!.properties.metrics).toContainEqual([
      METRICS_NAMESPACE,
      METRIC.firesSkippedOverload,
      'service',
      'dispatcher',
      expect.objectContaining({ label: `${METRIC.firesSkippedOverload} (dispatcher)` }),
    ]);
  });

  it('alarms when a workflow run failed in 5 minutes, counted by every function that ends runs', () => {
    const failed = alarms().filter(
      (a) => Array.isArray(a.Metrics) && metricsOf(a).some((m) => m.MetricName === METRIC.workflowRunsFailed),
    );
    expect(failed).toHaveLength(1);
    const alarm = failed[0]!;
    expect(alarm).toMatchObject({
      Threshold: 1,
      ComparisonOperator: 'GreaterThanOrEqualToThreshold',
      EvaluationPeriods: 1,
      TreatMissingData: 'notBreaching',
      AlarmActions: [{ Ref: logicalId(stack, stack.alarmTopic.topic) }],
    });
    const metrics = metricsOf(alarm);
    expect(metrics.every((m) => m.MetricName === METRIC.workflowRunsFailed)).toBe(true);
    expect(metrics.map((m) => m.Dimensions?.[0]?.Value).sort()).toEqual(
      [...METRIC_EMITTERS.workflowRunsFailed].sort(),
    );
    const stats = (alarm.Metrics as { MetricStat?: { Period: number; Stat: string } }[]).flatMap((m) =>
      m.MetricStat ? [m.MetricStat] : [],
    );
    expect(stats.every((m) => m.Period === 300 && m.Stat === 'Sum')).toBe(true);
    // One returned series: the sum, a function without data counting as 0.
    const returned = (alarm.Metrics as { Expression?: string; ReturnData?: boolean }[]).filter(
      (m) => m.ReturnData !== false,
    );
    expect(returned).toHaveLength(1);
    expect(returned[0]!.Expression).toMatch(/^SUM\(\[FILL\(\w+, 0\)(, FILL\(\w+, 0\))*\]\)$/);
  });

  it('has a Workflows row: runs started / succeeded / failed / cancelled / skipped, nodes fired, node lateness', () => {
    const [, dashboard] = resourcesOf('AWS::CloudWatch::Dashboard')[0]!;
    const raw = props(dashboard).DashboardBody as { 'Fn::Join': [string, unknown[]] } | string;
    // The body is JSON joined with tokens (function names, queue names): stand-ins make it parse.
    const text =
      typeof raw === 'string'
        ? raw
        : raw['Fn::Join'][1].map((part) => (typeof part === 'string' ? part : 'TOKEN')).join('');
    const body = JSON.parse(text) as {
      widgets: { y: number; properties: { title?: string; metrics?: unknown[][] } }[];
    };
    const workflows = body.widgets.filter((w) => w.properties.title?.startsWith('Workflows:'));
    expect(workflows.map((w) => w.properties.title)).toEqual([
      'Workflows: runs started, succeeded, failed, cancelled, skipped',
      'Workflows: nodes fired',
      'Workflows: node lateness, node fired to executor call (ms)',
    ]);
    // One row of its own.
    expect(new Set(workflows.map((w) => w.y)).size).toBe(1);
    expect(body.widgets.filter((w) => w.y === workflows[0]!.y)).toHaveLength(3);

    /** The [namespace, name, 'service', service, opts] metrics of a widget, and its expressions. */
    const parts = (w: (typeof workflows)[number]) => {
      const metrics = (w.properties.metrics ?? []) as unknown[][];
      return {
        stats: metrics
          .filter((m) => m[0] === METRICS_NAMESPACE)
          .map((m) => ({ name: m[1], service: m[3], opts: m[4] as { stat?: string; visible?: boolean } })),
        expressions: metrics
          .map((m) => m[0] as { expression?: string; label?: string })
          .filter((m) => typeof m === 'object' && m.expression),
      };
    };
    const [runs, nodes, lateness] = workflows.map(parts);
    // Each count a sum over every function that emits it.
    const totals: [ReturnType<typeof parts>, (keyof typeof METRIC_EMITTERS)[]][] = [
      [
        runs!,
        [
          'workflowRunsStarted',
          'workflowRunsSucceeded',
          'workflowRunsFailed',
          'workflowRunsCancelled',
          'workflowRunsSkipped',
        ],
      ],
      [nodes!, ['workflowNodesFired']],
    ];
    for (const [widget, keys] of totals) {
      expect(widget.expressions.map((e) => e.label)).toEqual(keys.map((k) => METRIC[k]));
      for (const e of widget.expressions) expect(e.expression).toMatch(/^SUM\(\[/);
      for (const key of keys) {
        const services = widget.stats.filter((m) => m.name === METRIC[key]);
        expect(services.map((m) => m.service).sort(), key).toEqual([...METRIC_EMITTERS[key]].sort());
        for (const m of services) expect(m.opts).toMatchObject({ stat: 'Sum', visible: false });
      }
    }
    expect(lateness!.stats.map((m) => [m.name, m.service, m.opts.stat])).toEqual([
      [METRIC.workflowNodeLateness, 'dispatcher', 'p50'],
      [METRIC.workflowNodeLateness, 'dispatcher', 'p99'],
    ]);
  });

  it.each(FUNCTION_NAMES)('alarms on errors of %s', (name) => {
    template.hasResourceProperties('AWS::CloudWatch::Alarm', {
      Namespace: 'AWS/Lambda',
      MetricName: 'Errors',
      Dimensions: [{ Name: 'FunctionName', Value: { Ref: fnId(name) } }],
      ComparisonOperator: 'GreaterThanOrEqualToThreshold',
      Threshold: 1,
    });
  });

  it('has a dashboard with every business metric, the queues, the DLQs and the functions', () => {
    const dashboards = resourcesOf('AWS::CloudWatch::Dashboard');
    expect(dashboards).toHaveLength(1);
    const body = JSON.stringify(props(dashboards[0]![1]).DashboardBody);
    expect(body).toContain(`\\"${METRICS_NAMESPACE}\\"`);
    for (const name of ALL_METRIC_NAMES) expect(body, name).toContain(`\\"${name}\\"`);
    for (const name of [
      'ApproximateNumberOfMessagesVisible',
      'ApproximateAgeOfOldestMessage',
      'Errors',
      'Duration',
    ]) {
      expect(body, name).toContain(`\\"${name}\\"`);
    }
    for (const ring of stack.queues.list) {
      expect(references(props(dashboards[0]![1]).DashboardBody, logicalId(stack, ring.deadLetterQueue))).toBe(
        true,
      );
    }
    for (const name of FUNCTION_NAMES)
      expect(references(props(dashboards[0]![1]).DashboardBody, fnId(name))).toBe(true);
  });
});

describe("CDK's CloudFormation validation, as cdk synth runs it", () => {
  it('passes the stack with every option that adds resources or grants', () => {
    const withEverything = testStack(testApp({ bundle: false, validation: true }), EVERY_OPTION);
    expect(() => Template.fromStack(withEverything)).not.toThrow();
  });

  it('is live in these tests: a table whose billing mode CloudFormation does not know fails the synthesis', () => {
    const app = testApp({ bundle: false, validation: true });
    new CdkCfnResource(new Stack(app, 'Invalid'), 'Table', {
      type: 'AWS::DynamoDB::Table',
      properties: {
        KeySchema: [{ AttributeName: 'pk', KeyType: 'HASH' }],
        AttributeDefinitions: [{ AttributeName: 'pk', AttributeType: 'S' }],
        BillingMode: 'NOT_A_BILLING_MODE',
      },
    });
    expect(() => app.synth()).toThrow(/NOT_A_BILLING_MODE|BillingMode/);
  });
});

describe('outputs', () => {
  it('outputs the API and console URLs, both secrets with a command to read them, the topic and the table names', () => {
    const outputs = json.Outputs ?? {};
    for (const key of [
      'ApiUrl',
      'ConsoleUrl',
      'AdminTokenSecretArn',
      'AdminTokenSecretName',
      'AdminTokenCommand',
      'AccessTokenSecretArn',
      'AccessTokenSecretName',
      'AccessTokenCommand',
      'AlarmTopicArn',
      'JobsTableName',
      'GroupsTableName',
      'RunsTableName',
      'RegistryTableName',
      'ControlTableName',
      'WorkflowsTableName',
      'ExecutorRunnerAddress',
    ]) {
      expect(outputs[key], key).toBeDefined();
    }
    expect(JSON.stringify(outputs.AdminTokenCommand?.Value)).toContain('aws secretsmanager get-secret-value');
    template.hasOutput('AccessTokenSecretArn', {
      Value: { Ref: logicalId(stack, stack.secrets.accessToken) },
    });
  });
});
