import { type DynamoDBDocumentClient, GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { AdmissionHandover, Lease, LeaseStore } from '@tickring/core/tick';
import { isConditionFailed } from './util.js';

/**
 * Shard leases as items in the control table, taken and renewed with one conditional update each:
 * free, expired, or already ours. The fencing token grows whenever the owner changes. A standby
 * asking for a lease another owner holds pays one refused write the first time: the refused renewal
 * hands back the lease as it stands, which tells that taking it would be refused too. From then on
 * its asks (one a second) read the lease first, eventually consistent, and write only once the read
 * shows it expired or handed over: half a read unit a second rather than a write unit, and a
 * hand-over is still taken within about a second. A read that lags only errs towards the writes,
 * which decide.
 */
export class DynamoLeaseStore implements LeaseStore {
  /** Per shard, the asking owner that another owner's lease refused at the last look: it reads before asking. */
  private readonly watchedBy = new Map<number, string>();

  constructor(private readonly options: { doc: DynamoDBDocumentClient; controlTable: string }) {}

  async acquire(shard: number, owner: string, nowMs: number, durationMs: number): Promise<Lease | undefined> {
    const key = { pk: leaseKey(shard) };
    if (await this.stillHeldElsewhere(shard, owner, nowMs)) return undefined;
    try {
      const renewed = await this.options.doc.send(
        new UpdateCommand({
          TableName: this.options.controlTable,
          Key: key,
          UpdateExpression: 'SET leaseUntil = :until',
          ConditionExpression: '#owner = :me AND leaseUntil >= :now',
          ExpressionAttributeNames: { '#owner': 'owner' },
          ExpressionAttributeValues: { ':me': owner, ':now': nowMs, ':until': nowMs + durationMs },
          ReturnValues: 'ALL_NEW',
          ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
        }),
      );
      return toLease(shard, renewed.Attributes ?? {}, false);
    } catch (err) {
      if (!isConditionFailed(err)) throw err;
      if (heldByAnother(err, owner, nowMs)) {
        this.watchedBy.set(shard, owner);
        return undefined;
      }
    }
    try {
      const taken = await this.options.doc.send(
        new UpdateCommand({
          TableName: this.options.controlTable,
          Key: key,
          // The handover (ALL_OLD hands it back) is for this taker only: a holder that dies hands nothing on.
          UpdateExpression: 'SET #owner = :me, leaseUntil = :until ADD fencingToken :one REMOVE admission',
          ConditionExpression: 'attribute_not_exists(leaseUntil) OR leaseUntil < :now',
          ExpressionAttributeNames: { '#owner': 'owner' },
          ExpressionAttributeValues: { ':me': owner, ':now': nowMs, ':until': nowMs + durationMs, ':one': 1 },
          ReturnValues: 'ALL_OLD',
        }),
      );
      const old = taken.Attributes ?? {};
      // A lease released on purpose (leaseUntil 0) is a hand-over, not a takeover.
      const tookOver = old.owner !== undefined && old.owner !== owner && Number(old.leaseUntil) > 0;
      const admission = old.admission as AdmissionHandover | undefined;
      return {
        shard,
        owner,
        leaseUntil: nowMs + durationMs,
        fencingToken: Number(old.fencingToken ?? 0) + 1,
        tookOver,
        ...(admission ? { admission } : {}),
      };
    } catch (err) {
      if (isConditionFailed(err)) return undefined;
      throw err;
    }
  }

  /**
   * Whether another owner still holds the lease, by a read, once a refusal said so. Read also past
   * the end that refusal showed: the holder renews at half time, so it has most likely moved that
   * end on, and asking with a write then would be refused every few seconds.
   */
  private async stillHeldElsewhere(shard: number, owner: string, nowMs: number): Promise<boolean> {
    if (this.watchedBy.get(shard) !== owner) return false;
    const { Item: item } = await this.options.doc.send(
      new GetCommand({
        TableName: this.options.controlTable,
        Key: { pk: leaseKey(shard) },
        ProjectionExpression: '#owner, leaseUntil',
        ExpressionAttributeNames: { '#owner': 'owner' },
      }),
    );
    const holder = item?.owner === undefined ? undefined : String(item.owner);
    const until = Number(item?.leaseUntil ?? Number.NaN);
    if (holder !== undefined && holder !== owner && until >= nowMs) return true;
    this.watchedBy.delete(shard);
    return false;
  }

  /** One conditional update: the lease ended and the admission kept beside it (or removed). */
  async release(shard: number, owner: string, admission?: AdmissionHandover): Promise<void> {
    try {
      await this.options.doc.send(
        new UpdateCommand({
          TableName: this.options.controlTable,
          Key: { pk: leaseKey(shard) },
          UpdateExpression: admission
            ? 'SET leaseUntil = :zero, admission = :admission'
            : 'SET leaseUntil = :zero REMOVE admission',
          ConditionExpression: '#owner = :me',
          ExpressionAttributeNames: { '#owner': 'owner' },
          ExpressionAttributeValues: {
            ':me': owner,
            ':zero': 0,
            ...(admission ? { ':admission': storedAdmission(admission) } : {}),
          },
        }),
      );
    } catch (err) {
      if (!isConditionFailed(err)) throw err;
    }
  }
}

/**
 * Whether a refused renewal's lease (the item as it stood, `ALL_OLD` on the refusal) is another
 * owner's and still running. Unknown (no item handed back) counts as not: the take is tried.
 */
function heldByAnother(err: unknown, owner: string, nowMs: number): boolean {
  const old = (err as { Item?: Record<string, { S?: string; N?: string }> }).Item;
  const holder = old?.owner?.S;
  const until = Number(old?.leaseUntil?.N ?? Number.NaN);
  return holder !== undefined && holder !== owner && until >= nowMs;
}

/** The handover's fields, and only those, as the item's `admission` map (`cutAt` only when cut). */
function storedAdmission(admission: AdmissionHandover): Record<string, number> {
  const { share, backlogSeconds, messagesPerIteration, readAt, cutAt } = admission;
  return { share, backlogSeconds, messagesPerIteration, readAt, ...(cutAt === undefined ? {} : { cutAt }) };
}

function leaseKey(shard: number): string {
  return `lease#${shard}`;
}

function toLease(shard: number, item: Record<string, unknown>, tookOver: boolean): Lease {
  return {
    shard,
    owner: String(item.owner),
    leaseUntil: Number(item.leaseUntil),
    fencingToken: Number(item.fencingToken ?? 0),
    tookOver,
  };
}
