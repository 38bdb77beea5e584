import { randomUUID } from 'node:crypto';
import { GetQueueAttributesCommand } from '@aws-sdk/client-sqs';
import { provisionResources } from '../local/provision.js';
import { type AwsClients, createAwsClients, destroyAwsClients } from '../shared/adapters/aws-clients.js';
import { DynamoJobStore } from '../shared/adapters/dynamodb/job-store.js';
import { DynamoLeaseStore } from '../shared/adapters/dynamodb/lease-store.js';
import { SqsRingQueue } from '../shared/adapters/sqs/ring-queue.js';
import { type Clock, systemClock } from '../shared/ports/clock.js';
import { silentLogger } from '../shared/ports/logger.js';
import { noMetrics } from '../shared/ports/metrics.js';
import { DEFAULT_PRE_READ_MS, type TickSettings, tickOnce } from '../shared/use-cases/run-tick.js';
import { mapLimit } from '../shared/util/concurrency.js';
import { makeJob } from '../test/jobs.js';
import { drainRing } from '../test/ring-reader.js';
import { PhaseTimer, timed } from './instrument.js';
import { type ResourceReport, ResourceSampler } from './process-stats.js';
import { RequestCounter } from './request-counter.js';

export interface StandInEndpoints {
  readonly dynamodb: string;
  readonly sqs: string;
}

export interface TickThroughputOptions {
  readonly jobs: number;
  readonly shards: number;
  /** Most jobs read per shard per iteration; the function's default is 5,000 (XXL-JOB's preReadCount). */
  readonly preReadCount: number;
  /** Measured iterations (the median is reported). */
  readonly repeat: number;
  readonly region: string;
}

/** One measured iteration. */
export interface TickIteration {
  /** From the iteration's start until the last fire was accepted by SQS (durable), ms. */
  readonly enqueuedMs: number;
  /** The whole iteration: lease, query, read, enqueue, advance for every shard, ms. */
  readonly iterationMs: number;
  readonly jobsRead: number;
  readonly firesEnqueued: number;
  /** Fires enqueued per second of iteration. */
  readonly firesPerSecond: number;
  /** Fires skipped (DO_NOTHING) because they were more than 5 s late when planned. */
  readonly misfiresSkipped: number;
  /** Ring messages whose triggerType is MISFIRE (FIRE_ONCE_NOW). */
  readonly misfireFires: number;
  /** Conditional advances lost to someone else (must be 0: nobody else runs). */
  readonly casLost: number;
  /** Spans of each operation inside the iteration, relative to its start. */
  readonly phases: Record<string, { fromMs: number; toMs: number; calls: number }>;
  readonly requests: { byOperation: Record<string, number>; dynamodb: number; sqs: number };
  /** What was found on the ring queues afterwards: one message per job, none twice, none slow. */
  readonly ring: {
    readonly messages: number;
    readonly distinctJobs: number;
    readonly duplicates: number;
    readonly slowLane: number;
    readonly ok: boolean;
  };
  readonly resources: ResourceReport;
}

export interface TickThroughputResult {
  readonly jobs: number;
  readonly shards: number;
  readonly preReadCount: number;
  /** Writing the N jobs (conditional PutItem each, 32 in flight), ms. */
  readonly setupMs: number;
  /** One iteration with nothing due (lease + one empty query per shard), ms. */
  readonly idleIterationMs: number;
  /** Every measured iteration, in order (the jobs are due again a minute later each time). */
  readonly iterations: readonly TickIteration[];
  /** The iteration of median duration, which the report shows. */
  readonly median: TickIteration;
  /** Every iteration enqueued exactly one fire per job. */
  readonly ringOk: boolean;
}

/** Cron fired once a minute, at second 0: exactly one fire per job falls in a 5 s pre-read window. */
const ONCE_A_MINUTE = '0 * * * * ?';
const CREATE_CONCURRENCY = 32;

/**
 * N jobs all due in the same second; one tick iteration (tickOnce, all shards in parallel) run at that
 * second. The tick's clock is the system clock shifted so that "now" is the due second: the jobs can be
 * written first and the iteration starts exactly when they are due, however long the writing took.
 */
export async function benchTickThroughput(
  endpoints: StandInEndpoints,
  options: TickThroughputOptions,
): Promise<TickThroughputResult> {
  const awsEndpoints = { dynamodb: endpoints.dynamodb, sqs: endpoints.sqs, sns: endpoints.sqs };
  const setup = createAwsClients({ region: options.region, endpoints: awsEndpoints });
  const tick = createAwsClients({ region: options.region, endpoints: awsEndpoints });
  try {
    const resources = await provisionResources(
      setup,
      `bench-tick-${options.jobs}-${randomUUID().slice(0, 8)}-`,
    );
    const tables = { jobsTable: resources.tables.jobs, controlTable: resources.tables.control };
    const queueUrls = { fast: resources.queues.ringFast.url, slow: resources.queues.ringSlow.url };

    // A minute boundary well ahead, so no real clock could reach it meanwhile.
    const due = Math.ceil(Date.now() / 60_000) * 60_000 + 120_000;
    const setupJobs = new DynamoJobStore({ doc: setup.doc, ...tables, shardCount: options.shards });
    const ids = Array.from({ length: options.jobs }, (_, i) => i + 1);
    const setupStarted = performance.now();
    await mapLimit(ids, CREATE_CONCURRENCY, (id) =>
      setupJobs.create(makeJob({ id, scheduleConf: ONCE_A_MINUTE, triggerNextTime: due })),
    );
    const setupMs = performance.now() - setupStarted;

    const counter = new RequestCounter();
    counter.attachDynamo(tick.dynamo);
    counter.attachSqs(tick.sqs);
    const timer = new PhaseTimer();
    let offset = 0;
    const clock: Clock = { now: () => Date.now() + offset, sleep: systemClock.sleep };
    const deps = {
      jobs: timed(
        new DynamoJobStore({ doc: tick.doc, ...tables, shardCount: options.shards }),
        'jobs',
        ['queryDue', 'getMany', 'advanceSchedule'],
        timer,
      ),
      leases: timed(
        new DynamoLeaseStore({ doc: tick.doc, controlTable: tables.controlTable }),
        'leases',
        ['acquire'],
        timer,
      ),
      ring: timed(new SqsRingQueue({ sqs: tick.sqs, queueUrls }), 'ring', ['enqueue'], timer),
      clock,
      logger: silentLogger,
      metrics: noMetrics,
    };
    const settings: TickSettings = {
      shardCount: options.shards,
      preReadCount: options.preReadCount,
      preReadMs: DEFAULT_PRE_READ_MS,
      leaseMs: 3_000,
      owner: 'bench-tick',
    };

    // Warm-up, and the cost of an iteration with nothing due: a minute before the jobs are due.
    offset = due - 60_000 - Date.now();
    let started = performance.now();
    await tickOnce(deps, settings, clock.now());
    const idleIterationMs = performance.now() - started;

    const iterations: TickIteration[] = [];
    for (let round = 0; round < options.repeat; round++) {
      counter.reset();
      timer.reset();
      const sampler = new ResourceSampler();
      sampler.start();
      // The jobs fire once a minute: round r runs at the r-th minute after the first due time.
      offset = due + round * 60_000 - Date.now();
      started = performance.now();
      const results = await tickOnce(deps, settings, clock.now());
      const iterationMs = performance.now() - started;
      const resources = sampler.stop();
      const requests = counter.snapshot();
      const phases = timer.report(started);
      const firesEnqueued = results.reduce((n, r) => n + r.firesEnqueued, 0);
      const ring = await readRing(setup, queueUrls, options.jobs);
      iterations.push({
        enqueuedMs: phases['ring.enqueue']?.toMs ?? Number.NaN,
        iterationMs,
        jobsRead: results.reduce((n, r) => n + r.jobsRead, 0),
        firesEnqueued,
        firesPerSecond: (firesEnqueued / iterationMs) * 1000,
        misfiresSkipped: results.reduce((n, r) => n + r.misfiresSkipped, 0),
        misfireFires: ring.misfireFires,
        casLost: results.reduce((n, r) => n + r.casLost, 0),
        phases,
        requests,
        ring: ring.summary,
        resources,
      });
    }
    const byDuration = [...iterations].sort((x, y) => x.iterationMs - y.iterationMs);
    return {
      jobs: options.jobs,
      shards: options.shards,
      preReadCount: options.preReadCount,
      setupMs,
      idleIterationMs,
      iterations,
      median: byDuration[Math.floor((byDuration.length - 1) / 2)] as TickIteration,
      ringOk: iterations.every((i) => i.ring.ok),
    };
  } finally {
    destroyAwsClients(tick);
    destroyAwsClients(setup);
  }
}

/**
 * Drains the fast ring queue (the messages are due now, delay 0) and checks one fire per job; the
 * slow queue must stay empty (nothing has been slow to dispatch).
 */
async function readRing(clients: AwsClients, queueUrls: { fast: string; slow: string }, jobs: number) {
  const all = await drainRing(clients.sqs, queueUrls.fast, {
    expected: jobs,
    quietMs: 1_500,
    timeoutMs: 60_000,
    pollers: 8,
  });
  const { Attributes = {} } = await clients.sqs.send(
    new GetQueueAttributesCommand({
      QueueUrl: queueUrls.slow,
      AttributeNames: [
        'ApproximateNumberOfMessages',
        'ApproximateNumberOfMessagesDelayed',
        'ApproximateNumberOfMessagesNotVisible',
      ],
    }),
  );
  const slowLane = Object.values(Attributes).reduce((n, v) => n + Number(v ?? 0), 0);
  const perJob = new Map<number, number>();
  for (const r of all) perJob.set(r.message.jobId, (perJob.get(r.message.jobId) ?? 0) + 1);
  const duplicates = [...perJob.values()].reduce((n, c) => n + c - 1, 0);
  return {
    misfireFires: all.filter((r) => r.message.triggerType === 'MISFIRE').length,
    summary: {
      messages: all.length,
      distinctJobs: perJob.size,
      duplicates,
      slowLane,
      ok: perJob.size === jobs && duplicates === 0 && slowLane === 0,
    },
  };
}
