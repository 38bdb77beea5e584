import { randomUUID } from 'node:crypto';
import { createRequire } from 'node:module';
import { mapLimit } from '@tickring/core/common';
import type { Schedule } from '@tickring/core/schedule';
import { Queue, Worker } from 'bullmq';
import { Redis } from 'ioredis';
import { expectedFires, type JobSchedule } from './fire-count.js';
import { descendantCpuSeconds, ResourceSampler } from './process-stats.js';
import { countRampStep } from './ramp-count.js';
import { driveRamp, type RampDriveOptions, wholeSecondAtOrAfter } from './ramp-driver.js';
import type { RampStep, RampStepCpu } from './ramp-result.js';
import { ReceiptLog } from './receipt-log.js';
import { ensureRedisServer, startRedisServer } from './redis-server.js';

/**
 * Jobs the BullMQ worker runs at once. tickring's SDK executor takes every run it is sent at once
 * (an HTTP request each), so the worker is not held to BullMQ's default of one; 100 is well past
 * what a no-op needs to keep Redis busy.
 */
export const BULLMQ_WORKER_CONCURRENCY = 100;
/** A new scheduler's first fire is at least this far ahead, so its upsert is done before it. */
const FIRST_FIRE_LEAD_MS = 1000;
const UPSERT_CONCURRENCY = 32;
/** Completed jobs are kept an hour, as tickring keeps its runs: Redis writes and holds them. */
const KEEP_COMPLETED_SECONDS = 3600;

export interface BullmqRampOptions extends RampDriveOptions {
  /** Gets the stop steps of what is started, for a caller that may have to abandon the run. */
  readonly onAbandon?: (step: () => Promise<void>) => void;
}

/**
 * The same ramp on BullMQ + Redis: a redis-server of the bench's own (append-only file, fsync every
 * second), one queue, one worker in this process running a no-op that notes when it received each
 * job, and one job scheduler ("every 1000 ms") per offered fire a second, each starting on a whole
 * second as tickring's FIX_RATE jobs fire. A job's scheduled time is the slot in its id
 * (`repeat:<scheduler>:<ms>`); its lateness, as tickring's, is receipt − that. BullMQ has no misfire
 * record: an iteration whose slot passed before the worker took the one before is not made, so
 * such fires count as missed, never as skipped.
 */
export async function runBullmqRamp(
  options: BullmqRampOptions,
): Promise<{ steps: RampStep[]; details: Record<string, unknown> }> {
  const { log } = options;
  log('BullMQ: making sure redis-server is installed (bench/ensure-redis.sh) ...');
  ensureRedisServer();
  const server = await startRedisServer();
  options.onAbandon?.(server.stop);
  const clients: Redis[] = [];
  let worker: Worker | undefined;
  let queue: Queue | undefined;
  const stop = async () => {
    await worker?.close().catch(() => undefined);
    await queue?.close().catch(() => undefined);
    for (const client of clients) client.disconnect();
    await server.stop();
  };
  options.onAbandon?.(stop);
  try {
    log(`BullMQ: ${server.version} on ${server.host}:${server.port} (appendonly yes, appendfsync everysec)`);
    const connect = () => {
      // BullMQ needs a client that retries every request forever (it blocks on some).
      const client = new Redis({ host: server.host, port: server.port, maxRetriesPerRequest: null });
      clients.push(client);
      return client;
    };
    const name = `bench-${randomUUID().slice(0, 8)}`;
    queue = new Queue(name, { connection: connect() });
    const receipts = new ReceiptLog();
    const problems: string[] = [];
    worker = new Worker(
      name,
      async (job) => {
        const fire = fireOf(job.id, job.data);
        if (fire) receipts.record(fire.jobId, fire.scheduledTime, Date.now());
      },
      { connection: connect(), concurrency: BULLMQ_WORKER_CONCURRENCY },
    );
    worker.on('error', (err) => {
      if (problems.length < 5) problems.push(err.message);
    });
    const made: JobSchedule[] = [];
    const ramp = await driveRamp(
      {
        label: 'bullmq',
        grow: async (total) => {
          const added = Array.from({ length: total - made.length }, (_, i) => made.length + i);
          const jobs = await mapLimit(added, UPSERT_CONCURRENCY, async (i): Promise<JobSchedule> => {
            const job = await (queue as Queue).upsertJobScheduler(
              schedulerId(i),
              { every: 1000, startDate: wholeSecondAtOrAfter(Date.now() + FIRST_FIRE_LEAD_MS) },
              {
                name: 'fire',
                data: { scheduler: i },
                opts: { removeOnComplete: { age: KEEP_COMPLETED_SECONDS } },
              },
            );
            // The first job's id says when the scheduler really starts (at once, on no whole
            // second, had the upsert ended after its start date); its fires are expected from there.
            const firstFire = fireOf(job?.id, { scheduler: i })?.scheduledTime;
            if (firstFire === undefined) throw new Error(`BullMQ made scheduler ${i} without a first job`);
            return { jobId: i, schedule: EVERY_SECOND, firstFire };
          });
          made.push(...jobs);
          return jobs;
        },
        cpu: () => bullmqCpu(),
      },
      receipts,
      options,
    );
    const steps = ramp.steps.map(
      (step): RampStep => ({
        ...countRampStep(
          step.offered,
          step.window,
          expectedFires(ramp.jobs, step.window),
          receipts.receipts,
          new Set(),
        ),
        window: { start: iso(step.window.start), end: iso(step.window.end) },
        tickMisfireSkips: null,
        skippedOverloadMetric: null,
        cpuCores: step.cpuCores,
        loadAverage: step.loadAverage,
        setupSeconds: step.setupSeconds,
      }),
    );
    return {
      steps,
      details: {
        redis: server.version,
        bullmq: BULLMQ_VERSION,
        workerConcurrency: BULLMQ_WORKER_CONCURRENCY,
        redisDurability: 'appendonly yes, appendfsync everysec, no RDB snapshots',
        receipts: receipts.receipts.length,
        workerErrors: problems,
        ...(ramp.stoppedEarly ? { stoppedEarly: ramp.stoppedEarly } : {}),
      },
    };
  } finally {
    log('BullMQ: closing the worker and the queue, stopping redis-server ...');
    await stop();
  }
}

/** The bench's scheduler ids: `s-<n>`, n from 0; the counting's job id is n. */
const schedulerId = (n: number): string => `s-${n}`;

/** The BullMQ version installed. */
const BULLMQ_VERSION = (createRequire(import.meta.url)('bullmq/package.json') as { version: string }).version;

const EVERY_SECOND: Schedule = { type: 'FIX_RATE', conf: '1', timeZone: 'UTC' };

/**
 * The fire a scheduler's job stands for: its scheduler's number (the job's data) and the slot in
 * its id, `repeat:<scheduler id>:<ms>`; undefined for any other job.
 */
export function fireOf(
  jobId: string | undefined,
  data: unknown,
): { jobId: number; scheduledTime: number } | undefined {
  const slot = /^repeat:.+:(\d+)$/.exec(jobId ?? '')?.[1];
  const scheduler = (data as { scheduler?: unknown } | undefined)?.scheduler;
  if (slot === undefined || typeof scheduler !== 'number') return undefined;
  return { jobId: scheduler, scheduledTime: Number(slot) };
}

/** CPU in a window: this process (the worker and the queue's client) and redis-server. */
function bullmqCpu(): { start(): void; stop(): RampStepCpu } {
  const sampler = new ResourceSampler();
  let redisAtStart: number | undefined;
  const started = { at: 0 };
  return {
    start: () => {
      started.at = performance.now();
      redisAtStart = descendantCpuSeconds('redis-server');
      sampler.start();
    },
    stop: () => {
      const { node } = sampler.stop();
      const redisNow = descendantCpuSeconds('redis-server');
      const wallSeconds = (performance.now() - started.at) / 1000;
      return {
        node: node.cpuCores,
        main: node.threads?.main.cpuCores ?? Number.NaN,
        executors: Number.NaN,
        store:
          redisNow === undefined || redisAtStart === undefined
            ? Number.NaN
            : (redisNow - redisAtStart) / wallSeconds,
      };
    },
  };
}

const iso = (ms: number): string => new Date(ms).toISOString();
