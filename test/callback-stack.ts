import { randomUUID } from 'node:crypto';
import { SubscribeCommand } from '@aws-sdk/client-sns';
import {
  CreateQueueCommand,
  DeleteMessageBatchCommand,
  GetQueueAttributesCommand,
  ReceiveMessageCommand,
} from '@aws-sdk/client-sqs';
import { type AwsClients, createAwsClients, destroyAwsClients } from '@tickring/aws/clients';
import {
  DynamoGroupStore,
  DynamoJobStore,
  DynamoRegistryStore,
  DynamoReportStore,
  DynamoRunStore,
} from '@tickring/aws/dynamodb';
import { ENV, SETTINGS } from '@tickring/core/config';
import { type FireMessage, parseRingMessage } from '@tickring/core/dispatch';
import type { Job } from '@tickring/core/jobs';
import type { Run } from '@tickring/core/runs';
import { makeJob, makeRun } from '@tickring/testing';
import { inject } from 'vitest';
import { type LocalStack, type StartLocalOptions, startLocal } from '../local/start-local.js';
import { TEST_REGION } from './stand-ins.js';

export interface CollectedMessage<T> {
  readonly body: T;
  /** Epoch ms SQS accepted the message. */
  readonly sentAt: number;
  /** Epoch ms this collector received it. */
  readonly receivedAt: number;
}

/**
 * Reads a queue in the background (deleting what it reads) and keeps every message for the test to
 * look at; `parse` turns one SQS message into its items (a ring message carries several fires).
 */
export class QueueCollector<T> {
  readonly messages: CollectedMessage<T>[] = [];
  private running = true;
  private readonly loop: Promise<void>;

  constructor(
    private readonly clients: AwsClients,
    readonly queueUrl: string,
    private readonly parse: (body: string) => readonly T[],
  ) {
    this.loop = this.poll();
  }

  async stop(): Promise<void> {
    this.running = false;
    await this.loop;
  }

  private async poll(): Promise<void> {
    while (this.running) {
      const { Messages = [] } = await this.clients.sqs
        .send(
          new ReceiveMessageCommand({
            QueueUrl: this.queueUrl,
            MaxNumberOfMessages: 10,
            WaitTimeSeconds: 1,
            MessageSystemAttributeNames: ['SentTimestamp'],
          }),
        )
        .catch(() => ({ Messages: [] }));
      if (Messages.length === 0) continue;
      const receivedAt = Date.now();
      for (const m of Messages) {
        const sentAt = Number(m.Attributes?.SentTimestamp ?? receivedAt);
        for (const body of this.parse(m.Body ?? '')) this.messages.push({ body, sentAt, receivedAt });
      }
      await this.clients.sqs.send(
        new DeleteMessageBatchCommand({
          QueueUrl: this.queueUrl,
          Entries: Messages.map((m, i) => ({ Id: String(i), ReceiptHandle: m.ReceiptHandle ?? '' })),
        }),
      );
    }
  }
}

export interface CallbackStack {
  readonly stack: LocalStack;
  readonly prefix: string;
  readonly runs: DynamoRunStore;
  readonly jobs: DynamoJobStore;
  readonly groups: DynamoGroupStore;
  readonly registry: DynamoRegistryStore;
  readonly reports: DynamoReportStore;
  /** Every fire the functions put on the ring (both lanes): the stack's dispatcher never sees it. */
  readonly ring: QueueCollector<FireMessage>;
  /** What reached the alarm topic, through an SQS subscription. */
  readonly alarms: QueueCollector<Record<string, unknown>>;
  /** POSTs JSON to the stack's HTTP API with the access token (or the given headers). */
  post(
    path: string,
    body: unknown,
    headers?: Record<string, string>,
  ): Promise<{ status: number; reply: unknown }>;
  createJob(overrides?: Partial<Job>): Promise<Job>;
  /** A run accepted by `executorAddress`, waiting for its result (deadline in 10 min unless given). */
  createRun(job: Job, overrides?: Partial<Run> & { deadline?: number }): Promise<Run>;
  stop(): Promise<void>;
}

/**
 * The local stack with its ring queue URLs pointed (for every function) at a probe queue the test
 * reads, so RETRY and PARENT messages can be inspected instead of being dispatched, and the alarm
 * topic subscribed by a queue the test reads.
 */
export async function startCallbackStack(
  label: string,
  options: Partial<StartLocalOptions> & { settings?: Record<string, string> } = {},
): Promise<CallbackStack> {
  const standIns = inject('standIns');
  const prefix = `${label}-${randomUUID().slice(0, 8)}-`;
  const clients = createAwsClients({
    region: TEST_REGION,
    endpoints: { dynamodb: standIns.dynamoEndpoint, sqs: standIns.sqsEndpoint, sns: standIns.sqsEndpoint },
  });
  const queue = async (name: string) => {
    const { QueueUrl = '' } = await clients.sqs.send(
      new CreateQueueCommand({ QueueName: `${prefix}${name}` }),
    );
    const { Attributes } = await clients.sqs.send(
      new GetQueueAttributesCommand({ QueueUrl, AttributeNames: ['QueueArn'] }),
    );
    return { url: QueueUrl, arn: Attributes?.QueueArn ?? '' };
  };
  const probe = await queue('ring-probe');
  const inbox = await queue('alarm-inbox');
  const stack = await startLocal({
    standIns,
    port: 0,
    inMemory: true,
    logLevel: 'silent',
    resourcePrefix: prefix,
    demo: false,
    ...options,
    settings: {
      [ENV.ringFastQueueUrl]: probe.url,
      [ENV.ringSlowQueueUrl]: probe.url,
      ...options.settings,
    },
  });
  await clients.sns.send(
    new SubscribeCommand({
      TopicArn: stack.resources.alarmTopicArn,
      Protocol: 'sqs',
      Endpoint: inbox.arn,
      Attributes: { RawMessageDelivery: 'true' },
    }),
  );
  const { doc } = stack.clients;
  const { tables } = stack.resources;
  const runs = new DynamoRunStore({
    doc,
    runsTable: tables.runs,
    controlTable: tables.control,
    retentionDays: 30,
  });
  const jobs = new DynamoJobStore({
    doc,
    jobsTable: tables.jobs,
    controlTable: tables.control,
    shardCount: 4,
  });
  const ring = new QueueCollector(clients, probe.url, (body) => parseRingMessage(body).fires);
  const alarms = new QueueCollector(clients, inbox.url, (body) => [
    JSON.parse(body) as Record<string, unknown>,
  ]);
  return {
    stack,
    prefix,
    runs,
    jobs,
    groups: new DynamoGroupStore({ doc, groupsTable: tables.groups }),
    registry: new DynamoRegistryStore({ doc, registryTable: tables.registry }),
    reports: new DynamoReportStore({ doc, controlTable: tables.control }),
    ring,
    alarms,
    async post(path, body, headers = { 'XXL-JOB-ACCESS-TOKEN': stack.tokens.accessToken }) {
      const response = await fetch(`${stack.urls.api}${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json;charset=UTF-8', ...headers },
        body: typeof body === 'string' ? body : JSON.stringify(body),
      });
      return { status: response.status, reply: await response.json() };
    },
    async createJob(overrides = {}) {
      const job = makeJob({
        id: await jobs.allocateId(),
        appName: `${label}-app`,
        scheduleType: 'NONE',
        scheduleConf: '',
        triggerStatus: 'STOPPED',
        ...overrides,
      });
      await jobs.create(job);
      return job;
    },
    async createRun(job, overrides = {}) {
      const [logId = 0] = await runs.allocateLogIds(job.id, 1);
      const now = Date.now();
      const { deadline, ...fields } = overrides;
      const run = makeRun({
        logId,
        jobId: job.id,
        appName: job.appName,
        jobName: job.name,
        dedupKey: `test#${logId}`,
        scheduledTime: now,
        triggerTime: now,
        executorHandler: job.executorHandler,
        retriesLeft: job.executorFailRetryCount,
        // As the dispatcher records them: the job's children, itself left out.
        childJobIds: job.childJobIds.filter((id) => id !== job.id),
        ...fields,
        triggerCode: 200,
        triggerMsg: 'accepted',
        dispatchedAt: now,
      });
      // As the dispatcher does it: the run recorded as sent, then listed as sent under its claim.
      // The claim is dated so that the lost-run watch reads its record about 2 s from now (a real
      // one waits lostRunSettleSeconds for records still being written).
      const claimToken = runs.newClaimToken(now - SETTINGS.lostRunSettleSeconds.default * 1000 + 2_000);
      await runs.createFire(run.dedupKey, [run], claimToken);
      await runs.recordDispatch(claimToken, [
        { logId, appName: run.appName, deadline: deadline ?? now + 600_000 },
      ]);
      return run;
    },
    async stop() {
      await Promise.all([ring.stop(), alarms.stop()]);
      await stack.stop();
      destroyAwsClients(clients);
    },
  };
}
