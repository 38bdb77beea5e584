import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import { tableEnvName } from '@tickring/aws/clients';
import { METRICS_NAMESPACE } from '@tickring/aws/observability';
import type { FunctionDefinition, TableName } from '@tickring/aws/topology';
import { ENV } from '@tickring/core/config';
import { Duration, RemovalPolicy } from 'aws-cdk-lib';
import type * as dynamodb from 'aws-cdk-lib/aws-dynamodb';
import * as iam from 'aws-cdk-lib/aws-iam';
import * as lambda from 'aws-cdk-lib/aws-lambda';
import * as nodejs from 'aws-cdk-lib/aws-lambda-nodejs';
import * as logs from 'aws-cdk-lib/aws-logs';
import type * as secretsmanager from 'aws-cdk-lib/aws-secretsmanager';
import type * as sns from 'aws-cdk-lib/aws-sns';
import type * as sqs from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';
import { acknowledgeGrantWildcards, acknowledgeNag, wildcardResourceFinding } from './nag-acknowledgments.js';

/** The repository root: entries in FUNCTIONS are relative to it, and it holds the lock file. */
export const PROJECT_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');

/**
 * ESM bundles get no `require`; CommonJS code inside them (parts of the AWS SDK and its
 * dependencies) still calls it for Node built-ins, so the bundle defines one at the top.
 */
export const ESM_REQUIRE_BANNER =
  "import { createRequire as __tickringCreateRequire } from 'node:module'; const require = __tickringCreateRequire(import.meta.url);";

/** The DynamoDB data-plane actions a function may be granted (IAM `dynamodb:<action>`). */
export type TableAction =
  | 'GetItem'
  | 'BatchGetItem'
  | 'Query'
  | 'Scan'
  | 'ConditionCheckItem'
  | 'PutItem'
  | 'UpdateItem'
  | 'DeleteItem'
  | 'BatchWriteItem';

/**
 * How a function uses a table: `read` / `write` / `readWrite` are CDK's grantReadData /
 * grantWriteData / grantReadWriteData; a list grants exactly those actions (on the table and its
 * indexes), which is what the functions use, since each calls only a few.
 */
export type TableAccess = 'read' | 'write' | 'readWrite' | readonly TableAction[];

/** A table with the logical name its env var is derived from (`tableEnvName`). */
export interface NamedTable {
  readonly logicalName: TableName;
  readonly table: dynamodb.ITable;
}

/** A ring queue with the env var that carries its URL. */
export interface NamedQueue {
  readonly envName: string;
  readonly queue: sqs.IQueue;
}

export interface ServiceFunctionProps {
  /** Name, entry file, timeout and memory, from `shared/schema/functions.ts`. */
  readonly definition: FunctionDefinition;
  /** @default logs.RetentionDays.ONE_MONTH */
  readonly logRetention?: logs.RetentionDays;
  /** @default POWERTOOLS_LOG_LEVEL INFO */
  readonly logLevel?: 'DEBUG' | 'INFO' | 'WARN' | 'ERROR';
  /**
   * X-Ray active tracing. Off by default: the functions do not emit segments themselves, and
   * X-Ray's write actions have no resource-level permissions (the role would need `Resource: *`).
   * @default false
   */
  readonly tracing?: boolean;
  /** Further environment variables (settings such as TICKRING_SHARD_COUNT). */
  readonly environment?: Readonly<Record<string, string>>;
  /** @default the repository's package-lock.json */
  readonly depsLockFilePath?: string;
  /** @default the repository root */
  readonly projectRoot?: string;
}

/**
 * A tickring Lambda function with the project's defaults baked in: Node.js 22 on ARM64, an ESM
 * bundle made by the local esbuild (no Docker) with the AWS SDK inside (the version the tests
 * ran), minified with source maps, its own log group with a retention, and a role of its own that
 * holds nothing but the right to write to that log group until the `bind*` helpers add, in one
 * call each, an IAM grant and the env var that tells the code where the resource is.
 */
export class ServiceFunction extends Construct {
  readonly function: nodejs.NodejsFunction;
  readonly role: iam.Role;
  readonly logGroup: logs.LogGroup;
  readonly definition: FunctionDefinition;

  constructor(scope: Construct, id: string, props: ServiceFunctionProps) {
    super(scope, id);
    const { definition } = props;
    this.definition = definition;
    const projectRoot = props.projectRoot ?? PROJECT_ROOT;

    this.logGroup = new logs.LogGroup(this, 'Logs', {
      retention: props.logRetention ?? logs.RetentionDays.ONE_MONTH,
      // Logs expire by retention anyway; a retained group would only be an orphan after destroy.
      removalPolicy: RemovalPolicy.DESTROY,
    });

    // Our own role instead of AWSLambdaBasicExecutionRole, whose logs:* actions are on `*`.
    this.role = new iam.Role(this, 'Role', {
      assumedBy: new iam.ServicePrincipal('lambda.amazonaws.com'),
      description: `tickring ${definition.name}`,
    });
    this.logGroup.grantWrite(this.role);

    this.function = new nodejs.NodejsFunction(this, 'Function', {
      description: `tickring ${definition.name}`,
      entry: path.join(projectRoot, definition.entry),
      handler: 'handler',
      projectRoot,
      depsLockFilePath: props.depsLockFilePath ?? path.join(projectRoot, 'package-lock.json'),
      runtime: lambda.Runtime.NODEJS_22_X,
      architecture: lambda.Architecture.ARM_64,
      timeout: Duration.seconds(definition.timeoutSeconds),
      memorySize: definition.memoryMb,
      role: this.role,
      logGroup: this.logGroup,
      tracing: props.tracing ? lambda.Tracing.ACTIVE : lambda.Tracing.DISABLED,
      awsSdkConnectionReuse: false, // SDK v3 keeps connections alive by itself
      environment: {
        NODE_OPTIONS: '--enable-source-maps',
        [ENV.serviceName]: definition.name,
        POWERTOOLS_METRICS_NAMESPACE: METRICS_NAMESPACE,
        [ENV.logLevel]: props.logLevel ?? 'INFO',
        ...props.environment,
      },
      bundling: {
        forceDockerBundling: false,
        format: nodejs.OutputFormat.ESM,
        banner: ESM_REQUIRE_BANNER,
        mainFields: ['module', 'main'],
        // node20 syntax runs on the nodejs22.x runtime and on the Node 20 the tests run the bundle with.
        target: 'node20',
        minify: true,
        logLevel: nodejs.LogLevel.WARNING,
        sourceMap: true,
        sourcesContent: false,
        // The SDK goes into the bundle: the deployed code runs the SDK version the tests ran, not
        // whatever the runtime ships that month.
        bundleAwsSDK: true,
        externalModules: [],
      },
    });
    acknowledgeNag(
      this.function,
      'AwsSolutions-L1',
      'nodejs22.x is the runtime the project chose for its functions; moving to a newer one is a decision ' +
        'of its own, made with a test run on it, not a lint fix',
    );
    if (props.tracing) {
      acknowledgeNag(
        this.role,
        'AwsSolutions-IAM5[Resource::*]',
        "X-Ray's PutTraceSegments and PutTelemetryRecords have no resource-level permissions",
      );
    }
  }

  /** Sets an environment variable. */
  setEnv(name: string, value: string): this {
    this.function.addEnvironment(name, value);
    return this;
  }

  /** Grants the table actions and sets the table's name env var (`tableEnvName`). */
  bindTable(named: NamedTable, access: TableAccess): this {
    const { table } = named;
    const grant = this.grantTable(table, access);
    if (grant) {
      acknowledgeGrantWildcards(
        this.role,
        grant,
        `the indexes of the ${named.logicalName} table (<table arn>/index/*): CDK grants the same actions on ` +
          "a table's indexes with the table; this table's indexes only",
      );
    }
    return this.setEnv(tableEnvName(named.logicalName), table.tableName);
  }

  private grantTable(table: dynamodb.ITable, access: TableAccess): iam.Grant | undefined {
    if (access === 'read') return table.grantReadData(this.function);
    if (access === 'write') return table.grantWriteData(this.function);
    if (access === 'readWrite') return table.grantReadWriteData(this.function);
    if (access.length === 0) return undefined;
    return table.grant(this.function, ...access.map((action) => `dynamodb:${action}`));
  }

  /** Grants sending (SendMessage, also used by SendMessageBatch) and sets the queue URL env var. */
  bindQueue(named: NamedQueue, access: 'send'): this {
    if (access === 'send') named.queue.grantSendMessages(this.function);
    return this.setEnv(named.envName, named.queue.queueUrl);
  }

  /** Grants sns:Publish on the topic and sets its ARN env var. */
  bindTopic(topic: sns.ITopic, envName: string, access: 'publish'): this {
    if (access === 'publish') topic.grantPublish(this.function);
    return this.setEnv(envName, topic.topicArn);
  }

  /** Grants reading the secret (GetSecretValue, DescribeSecret) and sets its ARN env var; never its value. */
  bindSecret(secret: secretsmanager.ISecret, envName: string, access: 'read'): this {
    if (access === 'read') secret.grantRead(this.function);
    return this.setEnv(envName, secret.secretArn);
  }

  /** Lets this function invoke the given function (lambda:InvokeFunction on it and its versions). */
  allowInvoke(target: lambda.IFunction): this {
    acknowledgeGrantWildcards(
      this.role,
      target.grantInvoke(this.function),
      "the function's versions and aliases (<function arn>:*, its qualified ARNs): that function only",
    );
    return this;
  }

  /**
   * Lets this function invoke itself: a policy of its own beside the role's default one, which the
   * function depends on (a grant there would name the function before it exists: a cycle).
   */
  allowInvokeSelf(): this {
    new iam.Policy(this, 'InvokeSelf', {
      roles: [this.role],
      statements: [
        new iam.PolicyStatement({
          actions: ['lambda:InvokeFunction'],
          resources: [this.function.functionArn],
        }),
      ],
    });
    return this;
  }

  /** Lets this function invoke functions known only by ARN (Lambda executors outside the stack). */
  allowInvokeArns(functionArns: readonly string[]): this {
    if (functionArns.length === 0) return this;
    this.function.addToRolePolicy(
      new iam.PolicyStatement({
        actions: ['lambda:InvokeFunction'],
        resources: functionArns.flatMap((arn) => [arn, `${arn}:*`]),
      }),
    );
    for (const arn of functionArns) {
      acknowledgeNag(
        this.role,
        wildcardResourceFinding(this.role, `${arn}:*`),
        "a configured Lambda executor's versions and aliases (<function arn>:*): that function only",
      );
    }
    return this;
  }
}
