import type { ReturnT } from '@tickring/protocol';
import type { Job } from '../jobs/job.js';
import type { Run } from '../runs/run.js';
import type { FireContext } from './fire-context.js';
import type { TriggerType } from './trigger.js';

/** The trigger log's message (XXL-JOB's triggerMsg): the settings used, the route trail, the executor's reply. */
export function describeTrigger(
  ctx: FireContext,
  run: Run,
  address: string,
  trail: string,
  reply: ReturnT<unknown>,
  note?: string,
): string {
  const { job } = ctx;
  const broadcast = job.executorRouteStrategy === 'SHARDING_BROADCAST';
  return [
    `Trigger type: ${run.triggerType}${run.attempt > 1 ? ` (attempt ${run.attempt})` : ''}`,
    `Executor group: ${job.appName} (${ctx.addressSource})`,
    `Address list: [${ctx.addresses.join(', ')}]`,
    `Route strategy: ${job.executorRouteStrategy}${broadcast ? ` (shard ${run.shardIndex}/${run.shardTotal})` : ''}`,
    `Block strategy: ${job.executorBlockStrategy}`,
    `Timeout: ${run.executorTimeout} s`,
    `Retries left: ${run.retriesLeft}`,
    ...(note ? [note] : []),
    ...(trail ? ['Route trail:', trail] : []),
    replyPart(address, reply),
  ].join('\n');
}

/** The trigger message of a skipped run. */
export function skippedTriggerMsg(job: Job, triggerType: TriggerType, reason: string): string {
  return [
    `Trigger type: ${triggerType}`,
    `Misfire strategy: ${job.misfireStrategy}`,
    `Skipped, never sent: ${reason}`,
  ].join('\n');
}

const REPLY_MARK = '>>>>>>>>>>> Trigger <<<<<<<<<<<';

function replyPart(address: string, reply: ReturnT<unknown>): string {
  return [REPLY_MARK, `address: ${address || '-'}`, `code: ${reply.code}`, `msg: ${reply.msg ?? ''}`].join(
    '\n',
  );
}

/** A recorded trigger message with a note added before the executor's reply. */
export function withNote(triggerMsg: string, note: string): string {
  const at = triggerMsg.lastIndexOf(REPLY_MARK);
  return at < 0 ? `${triggerMsg}\n${note}` : `${triggerMsg.slice(0, at)}${note}\n${triggerMsg.slice(at)}`;
}

/** A recorded trigger message with the executor's actual reply in place of the expected one. */
export function withReply(triggerMsg: string, address: string, reply: ReturnT<unknown>): string {
  const at = triggerMsg.lastIndexOf(REPLY_MARK);
  return `${at < 0 ? `${triggerMsg}\n` : triggerMsg.slice(0, at)}${replyPart(address, reply)}`;
}
