import { randomUUID } from 'node:crypto';
import { GetQueueAttributesCommand, SendMessageCommand } from '@aws-sdk/client-sqs';
import {
  DynamoGroupStore,
  DynamoJobStore,
  DynamoRegistryStore,
  DynamoRunStore,
} from '@tickring/aws/dynamodb';
import { ENV } from '@tickring/core/config';
import type { FireMessage } from '@tickring/core/dispatch';
import type { Group, Job } from '@tickring/core/jobs';
import type { Run, StoredRun } from '@tickring/core/runs';
import { createExecutor, type Executor, type JobHandler, silentLogger } from '@tickring/executor';
import { testGroup, testJob } from '@tickring/testing';
import { inject } from 'vitest';
import { type LocalStack, startLocal } from '../local/start-local.js';
import { waitFor } from './stand-ins.js';

/** How long an executor stays online after its last heartbeat, in these tests. */
export const TEST_REGISTRY_DEAD_SECONDS = 20;

/**
 * The whole local stack (real dispatcher, callback, executor-runner; the SQS poller feeding the
 * dispatcher) on the shared stand-ins, plus the stores and helpers the dispatch tests use.
 */
export async function startDispatchStack(settings: Record<string, string> = {}) {
  const stack: LocalStack = await startLocal({
    standIns: inject('standIns'),
    port: 0,
    inMemory: true,
    // DISPATCH_TEST_LOG=info (or debug) shows the stack's log lines while debugging a test.
    logLevel:
      process.env.DISPATCH_TEST_LOG === 'info' || process.env.DISPATCH_TEST_LOG === 'debug'
        ? process.env.DISPATCH_TEST_LOG
        : 'silent',
    resourcePrefix: `disp-${randomUUID().slice(0, 8)}-`,
    demo: false,
    settings: {
      [ENV.registryDeadSeconds]: String(TEST_REGISTRY_DEAD_SECONDS),
      [ENV.executorTimeoutMs]: '1500',
      ...settings,
    },
  });
  const { doc } = stack.clients;
  const tables = stack.resources.tables;
  const stores = {
    jobs: new DynamoJobStore({ doc, jobsTable: tables.jobs, controlTable: tables.control, shardCount: 4 }),
    groups: new DynamoGroupStore({ doc, groupsTable: tables.groups }),
    runs: new DynamoRunStore({
      doc,
      runsTable: tables.runs,
      controlTable: tables.control,
      retentionDays: 30,
    }),
    registry: new DynamoRegistryStore({ doc, registryTable: tables.registry }),
  };
  const executors: Executor[] = [];

  const helpers = {
    stack,
    ...stores,

    /** A group and a RUNNING job in it that the tick never fires (no next time): only our messages run it. */
    async createJob(job: Partial<Job> = {}, group: Partial<Group> = {}): Promise<Job> {
      const id = await stores.jobs.allocateId();
      const appName = job.appName ?? `app-${id}`;
      if (!(await stores.groups.get(appName))) await stores.groups.create(testGroup({ appName, ...group }));
      const created = testJob({ ...job, id, appName });
      await stores.jobs.create(created);
      return created;
    },

    /** Sends a fire to the fast ring queue, visible at once (the dispatcher waits for its millisecond). */
    async send(message: FireMessage, body = JSON.stringify(message)): Promise<void> {
      await stack.clients.sqs.send(
        new SendMessageCommand({ QueueUrl: stack.resources.queues.ringFast.url, MessageBody: body }),
      );
    },

    /** A manual trigger (runs whatever the job's status), due `inMs` from now. */
    manualFire(jobId: number, inMs = 500, extra: Partial<FireMessage> = {}): FireMessage {
      return {
        jobId,
        scheduledTime: Date.now() + inMs,
        triggerType: 'MANUAL',
        dedupKey: `manual#${jobId}#${randomUUID()}`,
        ...extra,
      };
    },

    async runsOf(jobId: number): Promise<StoredRun[]> {
      const page = await stores.runs.list({ jobId, limit: 100 });
      const fresh = await stores.runs.getMany(page.items.map((r) => r.logId));
      return fresh.sort((a, b) => a.logId - b.logId);
    },

    /**
     * Waits until the job has `count` runs that all satisfy `done` (default: the dispatcher is done
     * with them: sent or refused, as its dispatch record says).
     */
    async waitForRuns(
      jobId: number,
      count: number,
      done?: (run: Run) => boolean,
      timeoutMs = 30_000,
    ): Promise<Run[]> {
      const dispatched = async (run: StoredRun) =>
        (await stores.runs.dispatchedUnder(run.claimToken)).has(run.logId);
      return waitFor(
        async () => {
          const runs = await helpers.runsOf(jobId);
          if (runs.length < count) return undefined;
          const ready = done ? runs.every(done) : (await Promise.all(runs.map(dispatched))).every(Boolean);
          return ready ? runs : undefined;
        },
        { what: `${count} run(s) of job ${jobId}`, timeoutMs, intervalMs: 150 },
      );
    },

    /** Messages still in the fast ring queue (waiting, delayed or being processed). */
    async ringBacklog(): Promise<number> {
      const { Attributes = {} } = await stack.clients.sqs.send(
        new GetQueueAttributesCommand({
          QueueUrl: stack.resources.queues.ringFast.url,
          AttributeNames: [
            'ApproximateNumberOfMessages',
            'ApproximateNumberOfMessagesNotVisible',
            'ApproximateNumberOfMessagesDelayed',
          ],
        }),
      );
      return (
        Number(Attributes.ApproximateNumberOfMessages ?? 0) +
        Number(Attributes.ApproximateNumberOfMessagesNotVisible ?? 0) +
        Number(Attributes.ApproximateNumberOfMessagesDelayed ?? 0)
      );
    },

    /** A real SDK executor on 127.0.0.1 that registers with the stack and calls back to it. */
    async startSdkExecutor(appName: string, handlers: Record<string, JobHandler>): Promise<Executor> {
      const executor = createExecutor({
        appName,
        adminAddresses: stack.urls.api,
        accessToken: stack.tokens.accessToken,
        port: 0,
        host: '127.0.0.1',
        logger: silentLogger,
        logDir: `/tmp/tickring-dispatch-tests/${appName}-${randomUUID().slice(0, 8)}`,
        logRetentionDays: 0,
      });
      for (const [name, handler] of Object.entries(handlers)) executor.register(name, handler);
      await executor.start();
      executors.push(executor);
      return executor;
    },

    /** Waits until the registry lists exactly these addresses as online for the app. */
    async waitForRegistered(appName: string, addresses: readonly string[]): Promise<void> {
      const want = [...addresses].sort().join(',');
      await waitFor(
        async () => (await stores.registry.list(appName)).map((e) => e.address).join(',') === want,
        { what: `registry of ${appName} = ${want}`, timeoutMs: 15_000 },
      );
    },

    async stop(): Promise<void> {
      await Promise.allSettled(executors.map((e) => e.stop()));
      await stack.stop();
    },
  };
  return helpers;
}

export type DispatchStack = Awaited<ReturnType<typeof startDispatchStack>>;
