import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import { type Message, ReceiveMessageCommand } from '@aws-sdk/client-sqs';
import { ScanCommand } from '@aws-sdk/lib-dynamodb';
import { DynamoGroupStore, DynamoJobStore, DynamoRegistryStore } from '@tickring/aws/dynamodb';
import { METRICS_NAMESPACE } from '@tickring/aws/observability';
import type { TableName } from '@tickring/aws/topology';
import { FUNCTIONS, type FunctionName } from '@tickring/aws/topology';
import { METRIC } from '@tickring/core/common';
import { ENV } from '@tickring/core/config';
import { parseRingMessage } from '@tickring/core/dispatch';
import { makeJob } from '@tickring/testing';
import type { SQSBatchResponse, SQSEvent } from 'aws-lambda';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { httpApiEvent, scheduledEvent, sqsRecord } from '../../local/events.js';
import { createLambdaContext } from '../../local/lambda-host.js';
import { triggerParam } from '../../packages/executor/test-support/admin-driver.js';
import { FakeAdmin } from '../../packages/executor/test-support/fake-admin.js';
import { FakeExecutor } from '../../test/fake-executor.js';
import { isolatedResources, TEST_REGION, type TestResources } from '../../test/stand-ins.js';
import { ESM_REQUIRE_BANNER } from '../constructs/service-function.js';
import type { TickringStack } from '../stacks/tickring-stack.js';
import { RecordingProxy } from './recording-proxy.js';
import {
  asArray,
  type CfnTemplate,
  identityStatements,
  logicalId,
  references,
  testApp,
  testStack,
} from './support.js';

// Synthesis bundles six functions with esbuild: slow on a loaded machine.
vi.setConfig({ testTimeout: 60_000, hookTimeout: 180_000 });

/*
 * Runs the artefacts `cdk synth` produces (the esbuild bundles in the cloud assembly, AWS SDK inside)
 * on Node, against the DynamoDB and SQS stand-ins, configured only through the environment variables
 * the stack sets on each function (resource references swapped for the stand-ins' resources, tokens
 * given directly), and checks every AWS call they make is allowed by the function's IAM role.
 */

const RUNNER = path.join(path.dirname(fileURLToPath(import.meta.url)), 'bundle-runner.mjs');

const ADMIN_TOKEN = 'bundle-admin-token';
const ACCESS_TOKEN = 'bundle-access-token';
const APP_NAME = 'bundle-app';

let outdir: string;
let stack: TickringStack;
let template: CfnTemplate;
let assetPaths: Record<string, string>;
let t: TestResources;
let dynamoProxy: RecordingProxy;
let sqsProxy: RecordingProxy;
let executor: FakeExecutor;

beforeAll(async () => {
  outdir = mkdtempSync(path.join(tmpdir(), 'tickring-cdk-'));
  const app = testApp({ outdir });
  stack = testStack(app);
  const assembly = app.synth();
  template = assembly.getStackArtifact(stack.artifactId).template as CfnTemplate;
  const manifest = JSON.parse(readFileSync(path.join(outdir, `${stack.artifactId}.assets.json`), 'utf8')) as {
    files: Record<string, { source: { path: string; packaging?: string } }>;
  };
  assetPaths = Object.fromEntries(
    Object.entries(manifest.files).map(([hash, file]) => [hash, file.source.path]),
  );

  t = await isolatedResources('bundle');
  dynamoProxy = await RecordingProxy.start(t.endpoints.dynamodb);
  sqsProxy = await RecordingProxy.start(t.endpoints.sqs);
  executor = await FakeExecutor.start({ accessToken: ACCESS_TOKEN });
}, 180_000);

afterAll(async () => {
  await executor?.stop();
  await dynamoProxy?.stop();
  await sqsProxy?.stop();
  t?.close();
  if (outdir) rmSync(outdir, { recursive: true, force: true });
});

function fnId(name: FunctionName): string {
  return logicalId(stack, stack.functions[name].function);
}

/** The bundle file of a function, found through its Code.S3Key and the asset manifest. */
function bundleOf(name: FunctionName): string {
  const code = template.Resources[fnId(name)]?.Properties?.Code as { S3Key: string };
  const hash = code.S3Key.replace(/\.zip$/, '');
  const dir = assetPaths[hash];
  if (!dir) throw new Error(`no asset ${hash} for ${name}`);
  return path.join(outdir, dir, 'index.mjs');
}

/** The function's env from the template, each resource reference swapped for the stand-in resource. */
function envFor(name: FunctionName, given: Record<string, string> = {}): Record<string, string> {
  const environment = template.Resources[fnId(name)]?.Properties?.Environment as
    | { Variables: Record<string, unknown> }
    | undefined;
  const variables = environment?.Variables ?? {};
  const physical = new Map<string, string>();
  for (const [logical, named] of Object.entries(stack.tables.tables)) {
    physical.set(logicalId(stack, named.table), t.resources.tables[logical as TableName]);
  }
  for (const ring of stack.queues.list) {
    physical.set(logicalId(stack, ring.queue), t.resources.queues[ring.definition.logicalName].url);
  }
  physical.set(logicalId(stack, stack.alarmTopic.topic), t.resources.alarmTopicArn);
  // The dispatcher a workflow node is handed to (no workflow runs here: never invoked).
  physical.set(fnId('dispatcher'), 'dispatcher');
  const env: Record<string, string> = {};
  for (const [key, value] of Object.entries(variables)) {
    if (key in given) continue;
    if (key === ENV.adminTokenSecretArn) env[ENV.adminToken] = ADMIN_TOKEN;
    else if (key === ENV.accessTokenSecretArn) env[ENV.accessToken] = ACCESS_TOKEN;
    else if (key === ENV.tokenKeySecretArn) env[ENV.tokenKey] = 'bundle-test-token-key';
    // No CloudFront in front here (nor a Secrets Manager stand-in): the api believes only the gateway's address, as locally.
    else if (key === ENV.edgeSecretArn) continue;
    else if (typeof value === 'string') env[key] = value;
    else {
      const ref = (value as { Ref?: string }).Ref;
      const resolved = ref === undefined ? undefined : physical.get(ref);
      if (resolved === undefined)
        throw new Error(`${name}: cannot resolve ${key} = ${JSON.stringify(value)}`);
      env[key] = resolved;
    }
  }
  return {
    ...env,
    ...given,
    [ENV.region]: TEST_REGION,
    [ENV.dynamoEndpoint]: dynamoProxy.endpoint,
    [ENV.sqsEndpoint]: sqsProxy.endpoint,
    [ENV.snsEndpoint]: sqsProxy.endpoint,
    [ENV.logLevel]: 'WARN',
  };
}

/**
 * One invocation of a function's bundle, as Lambda runs it: in a worker thread of its own (a cold
 * start) with the function's env, Node's ESM loader importing the bundle. Returns the handler's
 * result and the EMF metric lines it printed.
 */
async function invoke(name: FunctionName, event: unknown, env: Record<string, string>) {
  dynamoProxy.caller = name;
  sqsProxy.caller = name;
  const timeoutMs = FUNCTIONS[name].timeoutSeconds * 1000;
  const deadline = Date.now() + timeoutMs;
  const {
    getRemainingTimeInMillis: _,
    done: _d,
    fail: _f,
    succeed: _s,
    ...context
  } = createLambdaContext({ name, timeoutMs, handler: async () => undefined }, TEST_REGION, deadline);
  const worker = new Worker(RUNNER, {
    env: { PATH: process.env.PATH ?? '', ...env },
    workerData: { bundleUrl: pathToFileURL(bundleOf(name)).href, event, context, deadline },
    stdout: true,
  });
  let printed = '';
  worker.stdout.on('data', (chunk: Buffer) => {
    printed += chunk.toString('utf8');
  });
  let outcome: { ok: boolean; result?: unknown; error?: string } | undefined;
  worker.on('message', (message: typeof outcome) => {
    outcome = message;
  });
  const exitCode = await new Promise<number>((resolve, reject) => {
    worker.once('error', reject);
    worker.once('exit', resolve);
  });
  if (!outcome) throw new Error(`${name} worker exited (${exitCode}) without a result`);
  if (!outcome.ok) throw new Error(`${name} failed: ${outcome.error}`);
  return { result: outcome.result, metrics: emfMetrics(printed.split('\n')) };
}

/** Metric names per namespace and service dimension, from EMF lines. */
function emfMetrics(lines: string[]): { namespace: string; service: string; names: string[] }[] {
  return lines
    .flatMap((text) => text.split('\n'))
    .filter((line) => line.includes('"_aws"'))
    .map(
      (line) =>
        JSON.parse(line) as Record<string, unknown> & {
          _aws: { CloudWatchMetrics: { Namespace: string; Metrics: { Name: string }[] }[] };
        },
    )
    .flatMap((emf) =>
      emf._aws.CloudWatchMetrics.map((m) => ({
        namespace: m.Namespace,
        service: String(emf.service),
        names: m.Metrics.map((metric) => metric.Name),
      })),
    );
}

/** Every recorded call of `caller` is allowed by an Allow statement of its role on that resource. */
function expectCallsAllowed(caller: FunctionName): void {
  const roleId = logicalId(stack, stack.functions[caller].role);
  const statements = identityStatements(template)
    .filter(
      ({ owner }) => owner === roleId || references(template.Resources[owner]?.Properties?.Roles, roleId),
    )
    .map(({ statement }) => statement);
  const resourceIds = new Map<string, string>();
  for (const [logical, named] of Object.entries(stack.tables.tables)) {
    resourceIds.set(t.resources.tables[logical as TableName], logicalId(stack, named.table));
  }
  for (const ring of stack.queues.list) {
    resourceIds.set(t.resources.queues[ring.definition.logicalName].url, logicalId(stack, ring.queue));
    resourceIds.set(
      t.resources.queues[ring.definition.logicalName].dlqUrl,
      logicalId(stack, ring.deadLetterQueue),
    );
  }
  resourceIds.set(t.resources.alarmTopicArn, logicalId(stack, stack.alarmTopic.topic));
  const calls = [...dynamoProxy.calls, ...sqsProxy.calls].filter((call) => call.caller === caller);
  expect(calls.length).toBeGreaterThan(0);
  const denied = calls.filter((call) => {
    const id = resourceIds.get(call.resource);
    return !statements.some(
      (s) =>
        s.Effect === 'Allow' &&
        asArray(s.Action).includes(call.action) &&
        id !== undefined &&
        asArray(s.Resource as unknown[]).some((r) => references(r, id)),
    );
  });
  expect(denied, `${caller} calls its role does not allow`).toEqual([]);
}

describe('the bundles cdk synth produces', () => {
  it('are ESM files with source maps, the AWS SDK inside', () => {
    for (const name of Object.keys(FUNCTIONS) as FunctionName[]) {
      const code = readFileSync(bundleOf(name), 'utf8');
      expect(code.startsWith(ESM_REQUIRE_BANNER)).toBe(true);
      expect(code).toContain('//# sourceMappingURL=index.mjs.map');
      expect(code).not.toMatch(/from\s*["']@aws-sdk\//);
    }
    expect(readFileSync(`${bundleOf('dispatcher')}.map`, 'utf8')).toContain('"mappings"');
  });

  it('schedule a due job (tick), trigger it on an executor (dispatcher) and take its result (callback), within their IAM grants', async () => {
    // An executor online for the app, and a job due in ~1.5 s.
    const doc = t.clients.doc;
    const now = Date.now();
    await new DynamoGroupStore({ doc, groupsTable: t.resources.tables.groups }).create({
      appName: APP_NAME,
      title: 'bundle test',
      addressType: 'AUTO',
      addressList: [],
      createdAt: now,
      updatedAt: now,
    });
    await new DynamoRegistryStore({ doc, registryTable: t.resources.tables.registry }).heartbeat(
      APP_NAME,
      executor.address,
      now,
    );
    const jobs = new DynamoJobStore({
      doc,
      jobsTable: t.resources.tables.jobs,
      controlTable: t.resources.tables.control,
      shardCount: Number(envFor('scheduler-tick')[ENV.shardCount]),
    });
    // Far enough out that a loaded machine (the tick loop, an SQS receive, a cold dispatcher bundle) still
    // dispatches it within the 5 s misfire threshold, and within the tick's 5 s pre-read.
    const due = Math.ceil((now + 3_000) / 1000) * 1000;
    await jobs.create(
      makeJob({
        id: 1,
        appName: APP_NAME,
        scheduleType: 'FIX_RATE',
        scheduleConf: '3600',
        triggerNextTime: due,
        // On a machine loaded enough that the cold bundles take the fire past the misfire threshold
        // anyway (CI, beside other work: twice), it is still sent, as the job's catch-up.
        misfireStrategy: 'FIRE_ONCE_NOW',
      }),
    );

    // The bundled tick, looping 2 s, enqueues the fire on the fast ring queue.
    const tickRun = await invoke('scheduler-tick', scheduledEvent(TEST_REGION, 'TickSchedule'), {
      ...envFor('scheduler-tick'),
      [ENV.tickLoopSeconds]: '2',
    });
    expect(tickRun.metrics).toContainEqual(
      expect.objectContaining({
        namespace: METRICS_NAMESPACE,
        service: 'scheduler-tick',
        names: expect.arrayContaining([METRIC.firesEnqueued]),
      }),
    );
    const fast = t.resources.queues.ringFast;
    let messages: Message[] = [];
    for (let i = 0; i < 10 && messages.length === 0; i++) {
      ({ Messages: messages = [] } = await t.clients.sqs.send(
        new ReceiveMessageCommand({
          QueueUrl: fast.url,
          MaxNumberOfMessages: 10,
          WaitTimeSeconds: 1,
          MessageSystemAttributeNames: ['All'],
        }),
      ));
    }
    expect(messages).toHaveLength(1);
    expect(parseRingMessage(messages[0]?.Body ?? '[]').fires[0]).toMatchObject({
      jobId: 1,
      scheduledTime: due,
    });
    expect((await jobs.get(1))?.triggerNextTime).toBe(due + 3_600_000);

    // The bundled dispatcher gets that message as its SQS event and triggers the executor.
    const event: SQSEvent = { Records: messages.map((m) => sqsRecord(m, fast.arn, TEST_REGION)) };
    const dispatch = await invoke('dispatcher', event, envFor('dispatcher'));
    expect(dispatch.result as SQSBatchResponse).toEqual({ batchItemFailures: [] });
    expect(executor.runs).toHaveLength(1);
    expect(executor.runs[0]).toMatchObject({ jobId: 1, executorHandler: 'demoJobHandler' });
    expect(executor.requests[0]?.headers['xxl-job-access-token']).toBe(ACCESS_TOKEN);
    const { Items: items = [] } = await doc.send(new ScanCommand({ TableName: t.resources.tables.runs }));
    // The run, in its job's partition, and the dispatcher's record of sending it.
    const runs = items.filter((item) => String(item.pk).startsWith('J#'));
    expect(runs).toHaveLength(1);
    expect(items.filter((item) => String(item.pk).startsWith('P#'))).toEqual([
      expect.objectContaining({ logIds: [runs[0]?.logId] }),
    ]);
    expect(runs[0]).toMatchObject({
      jobId: 1,
      scheduledTime: due,
      triggerCode: 200,
      executorAddress: executor.address,
    });
    expect(dispatch.metrics).toContainEqual(
      expect.objectContaining({
        namespace: METRICS_NAMESPACE,
        service: 'dispatcher',
        names: expect.arrayContaining([METRIC.runsDispatched, METRIC.lateness]),
      }),
    );

    // The executor reports the result: the bundled callback behind `POST /api/callback`.
    const trigger = executor.runs[0] as { logId: number; logDateTime: number };
    const callback = await invoke(
      'callback',
      executorApiEvent('callback', [
        { logId: trigger.logId, logDateTim: trigger.logDateTime, handleCode: 200, handleMsg: 'done' },
      ]),
      envFor('callback'),
    );
    expect(JSON.parse((callback.result as { body: string }).body)).toEqual({ code: 200 });
    const { Items: after = [] } = await doc.send(new ScanCommand({ TableName: t.resources.tables.runs }));
    const finished = after.filter((item) => String(item.pk).startsWith('J#'));
    expect(finished[0]).toMatchObject({ logId: trigger.logId, handleCode: 200, handleMsg: 'done' });
    expect(callback.metrics).toContainEqual(
      expect.objectContaining({ service: 'callback', names: expect.arrayContaining([METRIC.callbacks]) }),
    );

    // Everything the artefacts called is allowed by their roles in the template.
    expectCallsAllowed('scheduler-tick');
    expectCallsAllowed('dispatcher');
    expectCallsAllowed('callback');
  });

  it('serve the admin API, executor registrations and the lost-run sweep within their IAM grants', async () => {
    const groups = await invoke(
      'api',
      httpApiEvent(
        {
          method: 'GET',
          url: '/v1/groups',
          headers: { authorization: `Bearer ${ADMIN_TOKEN}` },
          body: Buffer.alloc(0),
          sourceIp: '127.0.0.1',
        },
        'ANY /v1/{proxy+}',
        { proxy: 'groups' },
      ),
      envFor('api'),
    );
    expect((groups.result as { statusCode: number }).statusCode).toBe(200);
    const jobs = await invoke(
      'api',
      httpApiEvent(
        { method: 'GET', url: '/v1/jobs', headers: {}, body: Buffer.alloc(0), sourceIp: '127.0.0.1' },
        'ANY /v1/{proxy+}',
        { proxy: 'jobs' },
      ),
      envFor('api'),
    );
    expect((jobs.result as { statusCode: number }).statusCode).toBe(401); // no token: refused

    const registry = {
      registryGroup: 'EXECUTOR',
      registryKey: APP_NAME,
      registryValue: 'http://127.0.0.1:9/',
    };
    for (const uri of ['registry', 'registryRemove']) {
      const reply = await invoke('callback', executorApiEvent(uri, registry), envFor('callback'));
      expect(JSON.parse((reply.result as { body: string }).body)).toEqual({ code: 200 });
    }

    const sweep = await invoke(
      'monitors',
      scheduledEvent(TEST_REGION, 'MonitorsSchedule'),
      envFor('monitors'),
    );
    expect(sweep.result).toMatchObject({ lost: 0 });

    expectCallsAllowed('api');
    expectCallsAllowed('callback');
    expectCallsAllowed('monitors');
  });

  it('run a built-in job handler (executor-runner) and report the result to the admin', async () => {
    const admin = await FakeAdmin.start({ token: ACCESS_TOKEN });
    try {
      // The stack points the runner at its HTTP API; here at a stand-in admin.
      const env = envFor('executor-runner', { [ENV.adminAddresses]: admin.baseUrl });
      const event = triggerParam({ jobId: 7, logId: 7001, executorHandler: 'demoJobHandler' });
      const run = await invoke('executor-runner', event, env);
      expect(run.result).toMatchObject({ logId: 7001, handleCode: 200 });
      expect(admin.callbackFor(7001)).toMatchObject({ logId: 7001, handleCode: 200 });
      expect(admin.requests[0]?.headers['xxl-job-access-token']).toBe(ACCESS_TOKEN);
    } finally {
      await admin.close();
    }
  });
});

/** An API Gateway v2 event for the executor API (`POST /api/{uri}` with the access token). */
function executorApiEvent(uri: string, body: unknown) {
  return httpApiEvent(
    {
      method: 'POST',
      url: `/api/${uri}`,
      headers: { 'content-type': 'application/json', 'xxl-job-access-token': ACCESS_TOKEN },
      body: Buffer.from(JSON.stringify(body)),
      sourceIp: '127.0.0.1',
    },
    'ANY /api/{proxy+}',
    { proxy: uri },
  );
}
