import { randomUUID } from 'node:crypto';
import type { Clock } from '../common/clock.js';
import { ForbiddenError, NotFoundError, ValidationError } from '../common/errors.js';
import type { Logger } from '../common/logger.js';
import { groupAddresses } from '../executors/registry.js';
import type { RegistryStore } from '../executors/registry-store.js';
import type { Job } from '../jobs/job.js';
import type { GroupStore, JobStore } from '../jobs/job-store.js';
import { GROUP_LIMITS, JOB_LIMITS, normalizeExecutorAddress } from '../jobs/job-validation.js';
import type { RunStore } from '../runs/run-store.js';
import { dueNow, type RingQueue } from './ring-queue.js';
import { broadcastTargets } from './routing/index.js';
import type { FireMessage, FixedShard } from './trigger.js';

export interface AdminTriggerDeps {
  readonly jobs: Pick<JobStore, 'get'>;
  /** Gives the fire's runs their logIds up front, so the trigger can answer them. */
  readonly runs: Pick<RunStore, 'allocateLogIds'>;
  /** A broadcast's executors are fixed when it is triggered: one run (and logId) per executor. */
  readonly groups: Pick<GroupStore, 'get'>;
  readonly registry: Pick<RegistryStore, 'list'>;
  readonly registryDeadSeconds: number;
  readonly ring: RingQueue;
  readonly clock: Clock;
  readonly logger: Logger;
  /** A fresh unique id for the fire's dedupKey; `randomUUID` by default. */
  readonly newId?: () => string;
}

/** The overrides of one manual trigger (XXL-JOB's `JobTriggerRequest{executorParam, addressList}`). */
export interface ManualTrigger {
  /** Replaces the job's executorParam for this run only (also when empty). */
  readonly executorParam?: string;
  /** Sends this run to these executors instead of the group's (http(s) URLs or `lambda:<function>`). */
  readonly addressList?: readonly string[];
}

export interface TriggerAccepted {
  readonly jobId: number;
  /** The fire's key: its run carries it as `dedupKey` (`GET /v1/logs?jobId=` shows the run). */
  readonly dedupKey: string;
  /** Epoch ms the run is due: now. */
  readonly scheduledTime: number;
  /** The run's logId (`GET /v1/logs/{logId}`); for a broadcast, its first shard's. */
  readonly logId: number;
  /** One logId per run: one, or one per executor of a broadcast (shard order). */
  readonly logIds: readonly number[];
}

const TRIGGER_FIELDS = ['executorParam', 'addressList'] as const;

/**
 * Reads a trigger body: absent or `{}` for a plain trigger. `addressList` is an array of addresses or
 * XXL-JOB's comma-separated string; http(s) addresses get a trailing `/`, duplicates are dropped,
 * an empty list means "the group's executors".
 */
export function parseManualTrigger(input: unknown): ManualTrigger {
  if (input === undefined || input === null) return {};
  if (typeof input !== 'object' || Array.isArray(input)) {
    throw new ValidationError('the body must be a JSON object (or empty)', 'body');
  }
  const body = input as Record<string, unknown>;
  for (const key of Object.keys(body)) {
    if (!(TRIGGER_FIELDS as readonly string[]).includes(key)) {
      throw new ValidationError(`unknown field "${key}"; a trigger takes ${TRIGGER_FIELDS.join(', ')}`, key);
    }
  }
  const out: { executorParam?: string; addressList?: string[] } = {};
  if (body.executorParam !== undefined && body.executorParam !== null) {
    if (typeof body.executorParam !== 'string') {
      throw new ValidationError('executorParam must be a string', 'executorParam');
    }
    if (body.executorParam.length > JOB_LIMITS.executorParam) {
      throw new ValidationError(
        `executorParam must be at most ${JOB_LIMITS.executorParam} characters; got ${body.executorParam.length}`,
        'executorParam',
      );
    }
    out.executorParam = body.executorParam;
  }
  if (body.addressList !== undefined && body.addressList !== null) {
    const addresses = readAddressList(body.addressList);
    if (addresses.length > 0) out.addressList = addresses;
  }
  return out;
}

function readAddressList(value: unknown): string[] {
  const expected = 'addressList must be an array of executor addresses (http(s) URLs or lambda:<function>)';
  let items: unknown[];
  if (typeof value === 'string') items = value.split(',');
  else if (Array.isArray(value)) items = value;
  else throw new ValidationError(expected, 'addressList');
  const out: string[] = [];
  for (const item of items) {
    if (typeof item !== 'string')
      throw new ValidationError(`${expected}; got ${JSON.stringify(item)}`, 'addressList');
    const text = item.trim();
    if (text === '') continue;
    const address = normalizeExecutorAddress(text);
    if (address === undefined) {
      throw new ValidationError(
        `addressList entries must be http(s) URLs or lambda:<function>; ${JSON.stringify(text)} is neither`,
        'addressList',
      );
    }
    if (!out.includes(address)) out.push(address);
  }
  if (out.length > GROUP_LIMITS.addressList) {
    throw new ValidationError(
      `addressList may hold at most ${GROUP_LIMITS.addressList} addresses`,
      'addressList',
    );
  }
  return out;
}

/**
 * Fires the job once, now (XXL-JOB's "execute once"): a MANUAL fire on the fast ring queue with no
 * delay, under a fresh `manual#<uuid>` key, with its run's logId given out here so the caller can
 * follow the run at once; a SHARDING_BROADCAST job's executors are fixed here too, one shard (and
 * logId) each. The dispatcher records the runs under those logIds (a redelivery finds them
 * recorded) and sends them. Works whatever the job's schedule and status (a stopped job, a NONE
 * schedule), as in XXL-JOB; the overrides apply to this run only.
 */
export async function triggerJob(
  deps: AdminTriggerDeps,
  jobId: number,
  input: unknown,
  options: TriggerOptions = { anyAddress: true },
): Promise<TriggerAccepted> {
  const trigger = parseManualTrigger(input);
  const job = await deps.jobs.get(jobId);
  if (!job) throw new NotFoundError(`job ${jobId} does not exist`);
  if (!options.anyAddress && trigger.addressList !== undefined)
    await requireOwnExecutors(deps, job, trigger.addressList);
  const shards = await broadcastShards(deps, job, trigger);
  const logIds = shards?.map((s) => s.logId) ?? (await deps.runs.allocateLogIds(jobId, 1));
  const logId = logIds[0] as number;
  const scheduledTime = deps.clock.now();
  const dedupKey = `manual#${(deps.newId ?? randomUUID)()}`;
  const message: FireMessage = {
    jobId,
    scheduledTime,
    triggerType: 'MANUAL',
    dedupKey,
    ...(shards === undefined ? { logId } : { shards }),
    ...(trigger.executorParam === undefined ? {} : { executorParam: trigger.executorParam }),
    ...(trigger.addressList === undefined ? {} : { addressList: trigger.addressList }),
  };
  await deps.ring.enqueue(dueNow([message]));
  deps.logger.info('job triggered manually', {
    jobId,
    dedupKey,
    logIds,
    scheduledTime: new Date(scheduledTime).toISOString(),
    paramOverride: trigger.executorParam !== undefined,
    addressList: trigger.addressList,
  });
  return { jobId, dedupKey, scheduledTime, logId, logIds };
}

export interface TriggerOptions {
  /**
   * The caller may send the run to any address (an admin). Otherwise an `addressList` may only name
   * executors of the job's group: the run carries the group's access token, which an address of the
   * caller's choosing would receive.
   */
  readonly anyAddress: boolean;
}

async function requireOwnExecutors(
  deps: AdminTriggerDeps,
  job: Job,
  addresses: readonly string[],
): Promise<void> {
  const group = await deps.groups.get(job.appName);
  const own = new Set(group ? await groupAddresses(deps, group, deps.registryDeadSeconds) : []);
  const foreign = addresses.filter((address) => !own.has(address));
  if (foreign.length > 0) {
    throw new ForbiddenError(
      `addressList may only name executors of group ${job.appName} (only an admin may send a run elsewhere); not in it: ${foreign.join(', ')}`,
    );
  }
}

/**
 * A broadcast's shards, fixed now: one per executor (the trigger's address list, else the group's
 * online executors), each with its run's logId; undefined for a job that is not broadcast. With no
 * executor the broadcast is one shard, which the dispatcher records as failed for want of one.
 */
async function broadcastShards(
  deps: AdminTriggerDeps,
  job: Job,
  trigger: ManualTrigger,
): Promise<FixedShard[] | undefined> {
  if (job.executorRouteStrategy !== 'SHARDING_BROADCAST') return undefined;
  let addresses = trigger.addressList ?? [];
  if (addresses.length === 0) {
    const group = await deps.groups.get(job.appName);
    addresses = group ? await groupAddresses(deps, group, deps.registryDeadSeconds) : [];
  }
  const targets = broadcastTargets([...new Set(addresses.map((a) => a.trim()).filter(Boolean))]);
  const logIds = await deps.runs.allocateLogIds(job.id, Math.max(1, targets.length));
  if (targets.length === 0) return [{ logId: logIds[0] as number, index: 0, total: 1, address: '' }];
  return targets.map((t, i) => ({ ...t, logId: logIds[i] as number }));
}
