import { LAMBDA_SCHEME } from '@tickring/aws/lambda';
import { FUNCTIONS, type FunctionName } from '@tickring/aws/topology';
import { ENV } from '@tickring/core/config';
import { Aws, CfnOutput, Duration, Fn, RemovalPolicy, Stack, type StackProps } from 'aws-cdk-lib';
import * as acm from 'aws-cdk-lib/aws-certificatemanager';
import type * as lambda from 'aws-cdk-lib/aws-lambda';
import * as eventSources from 'aws-cdk-lib/aws-lambda-event-sources';
import type * as logs from 'aws-cdk-lib/aws-logs';
import type * as secretsmanager from 'aws-cdk-lib/aws-secretsmanager';
import type { Construct } from 'constructs';
import { AlarmTopic } from '../constructs/alarm-topic.js';
import { DataTables } from '../constructs/data-tables.js';
import { type ApiThrottle, HttpApi } from '../constructs/http-api.js';
import { MinuteSchedule } from '../constructs/minute-schedule.js';
import { RingQueues } from '../constructs/ring-queues.js';
import { SchedulerAlarms } from '../constructs/scheduler-alarms.js';
import { SchedulerDashboard } from '../constructs/scheduler-dashboard.js';
import { ServiceFunction } from '../constructs/service-function.js';
import { TokenSecrets } from '../constructs/token-secrets.js';
import { WebConsole } from '../constructs/web-console.js';
import { FUNCTION_ACCESS, type SecretName } from './function-access.js';
import { settingsEnv, type TickringSettings } from './settings.js';

export interface TickringStackProps extends StackProps {
  /** DynamoDB deletion protection on every table. Turn off only for throw-away stacks. @default true */
  readonly deletionProtection?: boolean;
  /** Tables and token secrets when removed from the stack or on destroy. @default RemovalPolicy.RETAIN */
  readonly removalPolicy?: RemovalPolicy;
  /**
   * Retention of the log groups: the functions', the API's access log, the console deployment's.
   * @default logs.RetentionDays.ONE_MONTH
   */
  readonly logRetention?: logs.RetentionDays;
  /** Powertools log level of the functions. @default 'INFO' */
  readonly logLevel?: 'DEBUG' | 'INFO' | 'WARN' | 'ERROR';
  /** X-Ray active tracing on the functions. @default false */
  readonly tracing?: boolean;
  /** Most concurrent dispatcher invocations per ring queue (ESM ScalingConfig.MaximumConcurrency, 2–1000). @default 50 */
  readonly dispatcherMaxConcurrency?: number;
  /**
   * ARNs of Lambda executors outside this stack (functions built with the executor SDK's
   * `lambdaExecutor`), which the dispatcher may invoke; their groups list them as `lambda:<arn>`.
   * @default none (only this stack's executor-runner)
   */
  readonly lambdaExecutorArns?: readonly string[];
  /** An e-mail address subscribed to the alarm topic. @default none */
  readonly alarmEmail?: string;
  /** Default-stage throttling of the HTTP API. @default DEFAULT_API_THROTTLE (200 rps, burst 400) */
  readonly apiThrottle?: ApiThrottle;
  /** Scheduler settings passed to the functions as env vars. */
  readonly settings?: TickringSettings;
  /** URL prefixes the executor-runner's built-in `httpJobHandler` may call. @default none */
  readonly httpAllowList?: readonly string[];
  /** The built web console deployed behind CloudFront. @default CONSOLE_DIST_DIR (console/dist, `npm run build`) */
  readonly consoleDistDir?: string;
  /**
   * The console's own domain names and their ACM certificate (in us-east-1): viewers then need TLS 1.2.
   * @default none (the distribution's *.cloudfront.net name)
   */
  readonly consoleDomain?: { readonly domainNames: readonly string[]; readonly certificateArn: string };
}

export const DEFAULT_DISPATCHER_MAX_CONCURRENCY = 50;
/** The ring queues' event source: at most 10 fires per invocation, each dispatched concurrently. */
export const DISPATCHER_BATCH_SIZE = 10;

/**
 * tickring's scheduling center in one stack: the tables and ring queues of `shared/schema/`, the
 * six functions of `functions/` each with its own least-privilege role, the schedules and the
 * event sources that drive them, the HTTP API, the web console (S3 + CloudFront, with the API's /v1 on
 * its origin), the generated tokens, the alarm topic, and a dashboard with alarms.
 */
export class TickringStack extends Stack {
  readonly tables: DataTables;
  readonly queues: RingQueues;
  readonly secrets: TokenSecrets;
  readonly alarmTopic: AlarmTopic;
  readonly functions: Readonly<Record<FunctionName, ServiceFunction>>;
  readonly httpApi: HttpApi;
  readonly webConsole: WebConsole;

  constructor(scope: Construct, id: string, props: TickringStackProps = {}) {
    super(scope, id, props);
    const removalPolicy = props.removalPolicy ?? RemovalPolicy.RETAIN;
    const settings = props.settings ?? {};

    this.tables = new DataTables(this, 'Tables', {
      deletionProtection: props.deletionProtection ?? true,
      removalPolicy,
    });
    this.queues = new RingQueues(this, 'RingQueues');
    this.secrets = new TokenSecrets(this, 'Tokens', { removalPolicy });
    this.alarmTopic = new AlarmTopic(this, 'Alarms', { email: props.alarmEmail });

    const secretsByName: Record<SecretName, { secret: secretsmanager.ISecret; env: string }> = {
      adminToken: { secret: this.secrets.adminToken, env: ENV.adminTokenSecretArn },
      accessToken: { secret: this.secrets.accessToken, env: ENV.accessTokenSecretArn },
      tokenKey: { secret: this.secrets.tokenKey, env: ENV.tokenKeySecretArn },
      edgeSecret: { secret: this.secrets.edgeSecret, env: ENV.edgeSecretArn },
    };

    const functions = {} as Record<FunctionName, ServiceFunction>;
    for (const definition of Object.values(FUNCTIONS)) {
      const fn = new ServiceFunction(this, definition.name, {
        definition,
        logRetention: props.logRetention,
        logLevel: props.logLevel,
        tracing: props.tracing,
        environment: settingsEnv(settings, definition.name),
      });
      const access = FUNCTION_ACCESS[definition.name];
      for (const [name, tableAccess] of Object.entries(access.tables)) {
        if (tableAccess) fn.bindTable(this.tables.tables[name as keyof typeof access.tables], tableAccess);
      }
      if (access.sendToRing) for (const ring of this.queues.list) fn.bindQueue(ring, 'send');
      if (access.publishAlarms) fn.bindTopic(this.alarmTopic.topic, ENV.alarmTopicArn, 'publish');
      for (const name of access.secrets)
        fn.bindSecret(secretsByName[name].secret, secretsByName[name].env, 'read');
      functions[definition.name] = fn;
    }
    this.functions = functions;

    // Lambda executors: invoked by the dispatcher only (an identity policy on its role; no resource
    // policy on them opens them to anyone else). The runner reports to the admin like any executor.
    const runner = functions['executor-runner'];
    for (const [name, fn] of Object.entries(functions)) {
      if (!FUNCTION_ACCESS[name as FunctionName].invokeExecutors) continue;
      fn.allowInvoke(runner.function).allowInvokeArns(props.lambdaExecutorArns ?? []);
    }
    // A run is triggered once; an asynchronous retry by Lambda would run the job a second time, so
    // failures go down the admin's own retry path (lost-run monitor, executorFailRetryCount).
    runner.function.configureAsyncInvoke({ retryAttempts: 0 });
    if (props.httpAllowList?.length) runner.setEnv(ENV.httpAllowList, props.httpAllowList.join(','));

    // Two targets, one function: every minute EventBridge starts two tick invocations at once. Each
    // loops ~80 s (90 s timeout; longer than the minute, so a late start of the next pair leaves no
    // gap), one iteration per second, renewing the 3 s shard leases it holds
    // and trying to take the others; so two ticks always run side by side and either one is the
    // other's standby: when one dies (crash, timeout, a throttled start), its leases lapse and the
    // other takes its shards over within 5 s instead of at the next minute. The leases and the
    // conditional schedule advance make the second invocation safe (no fire is enqueued twice).
    // A Lambda retry of a failed tick adds nothing the next minute's ticks don't do: none.
    new MinuteSchedule(this, 'TickSchedule', {
      target: functions['scheduler-tick'].function,
      invocationsPerMinute: 2,
      description: 'tickring scheduler-tick: two overlapping invocations a minute (active + standby)',
    });
    functions['scheduler-tick'].function.configureAsyncInvoke({ retryAttempts: 0 });
    new MinuteSchedule(this, 'MonitorsSchedule', {
      target: functions.monitors.function,
      description: 'tickring monitors: lost-run sweep every minute',
    });
    functions.monitors.function.configureAsyncInvoke({ retryAttempts: 0 });

    // The workflow engine hands the nodes it fires to the dispatcher (an asynchronous Invoke): the
    // functions that run it may invoke the dispatcher and know its name; the dispatcher invokes
    // itself (its name is Lambda's AWS_LAMBDA_FUNCTION_NAME). Lambda retries a failed event twice
    // (the claim de-duplicates a fire); an event older than the stalled-run sweep's reach is dropped:
    // the monitors have fired its nodes again by then.
    const dispatcher = functions.dispatcher;
    for (const [name, fn] of Object.entries(functions)) {
      if (!FUNCTION_ACCESS[name as FunctionName].handOffToDispatcher) continue;
      if (fn === dispatcher) fn.allowInvokeSelf();
      else
        fn.allowInvoke(dispatcher.function).setEnv(ENV.dispatcherFunction, dispatcher.function.functionName);
    }
    dispatcher.function.configureAsyncInvoke({ retryAttempts: 2, maxEventAge: Duration.minutes(5) });

    // The dispatcher consumes both ring queues, reporting failed records only (partial batch response).
    const maxConcurrency = props.dispatcherMaxConcurrency ?? DEFAULT_DISPATCHER_MAX_CONCURRENCY;
    for (const ring of this.queues.list) {
      functions.dispatcher.function.addEventSource(
        new eventSources.SqsEventSource(ring.queue, {
          batchSize: DISPATCHER_BATCH_SIZE,
          reportBatchItemFailures: true,
          maxConcurrency,
        }),
      );
    }

    this.httpApi = new HttpApi(this, 'Http', {
      targets: { api: functions.api.function, callback: functions.callback.function },
      throttle: props.apiThrottle,
      logRetention: props.logRetention,
    });
    // The runner reports results to this stack's executor API (XXL-JOB admin addresses).
    runner.setEnv(ENV.adminAddresses, this.httpApi.url);

    // The web console (S3 + CloudFront), calling this API's /v1 on its own origin, with the edge secret
    // that makes the api believe the viewer address CloudFront reports.
    this.webConsole = new WebConsole(this, 'Console', {
      httpApi: this.httpApi.api,
      edgeSecret: this.secrets.edgeSecret,
      distDir: props.consoleDistDir,
      removalPolicy,
      logRetention: props.logRetention,
      domain: props.consoleDomain && {
        domainNames: props.consoleDomain.domainNames,
        certificate: acm.Certificate.fromCertificateArn(
          this,
          'ConsoleCertificate',
          props.consoleDomain.certificateArn,
        ),
      },
    });

    const lambdas = Object.fromEntries(
      Object.entries(functions).map(([name, fn]) => [name, fn.function as lambda.IFunction]),
    ) as Record<FunctionName, lambda.IFunction>;
    const alarms = new SchedulerAlarms(this, 'SchedulerAlarms', {
      functions: lambdas,
      queues: this.queues.list,
      topic: this.alarmTopic.topic,
    });
    const dashboard = new SchedulerDashboard(this, 'Dashboard', {
      functions: lambdas,
      queues: this.queues.list,
      alarms: alarms.alarms,
      // Dashboard names are unique per account, across regions.
      dashboardName: `${this.stackName}-${Aws.REGION}`,
    });

    this.addOutputs(dashboard.dashboard.dashboardName, props.consoleDomain !== undefined);
  }

  private addOutputs(dashboardName: string, hasConsoleDomain: boolean): void {
    const output = (id: string, value: string, description: string) =>
      new CfnOutput(this, id, { value, description });
    output(
      'ApiUrl',
      this.httpApi.url,
      'HTTP API base URL: admin API under /v1, executor API under /api (xxl.job.admin.addresses)',
    );
    output('ConsoleUrl', this.webConsole.url, "web console (CloudFront; its /v1 is this stack's admin API)");
    if (hasConsoleDomain) {
      output(
        'ConsoleDistributionDomainName',
        this.webConsole.distribution.distributionDomainName,
        "what the console's domain names point at (CNAME or alias)",
      );
    }
    const tokens = [
      ['AdminToken', this.secrets.adminToken, 'admin API Bearer token'],
      ['AccessToken', this.secrets.accessToken, 'executor access token (xxl.job.accessToken)'],
    ] as const;
    for (const [id, secret, what] of tokens) {
      output(`${id}SecretArn`, secret.secretArn, `Secrets Manager secret holding the ${what}`);
      output(`${id}SecretName`, secret.secretName, `name of the secret holding the ${what}`);
      output(
        `${id}Command`,
        Fn.join('', [
          'aws secretsmanager get-secret-value --region ',
          Aws.REGION,
          ' --secret-id ',
          secret.secretArn,
          ' --query SecretString --output text',
        ]),
        `prints the ${what}`,
      );
    }
    output(
      'AlarmTopicArn',
      this.alarmTopic.topic.topicArn,
      'SNS topic of all alarms (subscribe e-mail, chat, ...)',
    );
    for (const { logicalName, table } of this.tables.list) {
      output(
        `${logicalName[0]?.toUpperCase()}${logicalName.slice(1)}TableName`,
        table.tableName,
        `DynamoDB table ${logicalName}`,
      );
    }
    output(
      'ExecutorRunnerAddress',
      `${LAMBDA_SCHEME}${this.functions['executor-runner'].function.functionArn}`,
      'executor address of the built-in Lambda executor, for a group with a manual address list',
    );
    output('DashboardName', dashboardName, 'CloudWatch dashboard');
  }
}
